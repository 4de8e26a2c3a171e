import { SERVER_RENDERED_ATTRIBUTE } from '@lakecams/contracts';
import { useState } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lazyPage } from '../src/lazy-page.tsx';
import { remoteLifecycles } from '../src/remote-lifecycles.ts';

function Counter() {
  const [count] = useState(3);
  return <p>Zähler {count}</p>;
}

describe('remoteLifecycles', () => {
  // single-spa-react's mount resolves once React rendered, which act() would hold back until the mount resolved.
  beforeAll(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  });
  afterAll(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  });
  afterEach(() => {
    document.body.replaceChildren();
    delete window.__lakecams_remotes;
  });

  it('mounts the root component into the container the shell names, and unmounts it again', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const { bootstrap, mount, unmount } = remoteLifecycles('mf_test', Counter);
    const props = { name: 'mf_test', domElementGetter: () => container, singleSpa: {}, mountParcel: () => {} };
    await bootstrap(props as never);
    await mount(props as never);
    expect(container.textContent).toBe('Zähler 3');
    await unmount(props as never);
    expect(container.textContent).toBe('');
  });

  it("tells the page which React and session the remote runs on, under the remote's name", async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const { bootstrap, mount, unmount } = remoteLifecycles('mf_test', Counter);
    const props = { name: 'mf_test', domElementGetter: () => container, singleSpa: {}, mountParcel: () => {} };
    await bootstrap(props as never);
    await mount(props as never);
    expect(window.__lakecams_remotes?.mf_test?.react).toBe(useState);
    expect(typeof window.__lakecams_remotes?.mf_test?.sessionInstanceId).toBe('string');
    await unmount(props as never);
  });

  /** A container as the gateway sends it: the server's markup, marked with the path it was rendered for. */
  function serverRendered(markup: string, renderedAt: string) {
    const container = document.createElement('div');
    container.setAttribute(SERVER_RENDERED_ATTRIBUTE, renderedAt);
    container.innerHTML = markup;
    document.body.append(container);
    return container;
  }
  const propsFor = (container: HTMLElement) =>
    ({ name: 'mf_test', domElementGetter: () => container, singleSpa: {}, mountParcel: () => {} }) as never;

  it('hydrates the markup the server rendered for the open page on the first mount, then renders anew', async () => {
    window.history.replaceState(null, '', '/datenschutz');
    const container = serverRendered(renderToString(<Counter />), '/datenschutz');
    const paragraph = container.querySelector('p');
    const { bootstrap, mount, unmount } = remoteLifecycles('mf_test', Counter);
    await bootstrap(propsFor(container));
    await mount(propsFor(container));
    // Hydrated: the very element the server sent, now React's.
    expect(container.querySelector('p')).toBe(paragraph);
    expect(container.hasAttribute(SERVER_RENDERED_ATTRIBUTE)).toBe(false);
    await unmount(propsFor(container));
    expect(container.textContent).toBe('');
    await mount(propsFor(container));
    expect(container.textContent).toBe('Zähler 3');
    await unmount(propsFor(container));
  });

  it("loads a lazy page's code before hydrating it, so it hydrates instead of suspending", async () => {
    window.history.replaceState(null, '', '/datenschutz');
    let loads = 0;
    const Page = lazyPage(async () => {
      loads += 1;
      return { Counter };
    }, 'Counter');
    const container = serverRendered(renderToString(<Counter />), '/datenschutz');
    const paragraph = container.querySelector('p');
    const { bootstrap, mount, unmount } = remoteLifecycles('mf_test', Page, { beforeHydrate: () => Page.preload() });
    await bootstrap(propsFor(container));
    await mount(propsFor(container));
    expect(container.querySelector('p')).toBe(paragraph);
    expect(loads).toBe(1);
    await unmount(propsFor(container));
  });

  it('renders anew where the server rendered another page than the one now open', async () => {
    window.history.replaceState(null, '', '/referes-list');
    const container = serverRendered('<p>Datenschutz</p>', '/datenschutz');
    const { bootstrap, mount, unmount } = remoteLifecycles('mf_test', Counter);
    await bootstrap(propsFor(container));
    await mount(propsFor(container));
    expect(container.textContent).toBe('Zähler 3');
    expect(container.hasAttribute(SERVER_RENDERED_ATTRIBUTE)).toBe(false);
    await unmount(propsFor(container));
  });
});
