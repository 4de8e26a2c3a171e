import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
});
