import { SERVER_RENDERED_ATTRIBUTE } from '@lakecams/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { dropServerRenderingOnLeave, remoteContainer } from '../src/remote-apps.ts';

describe("the gateway's rendering of a page", () => {
  afterEach(() => document.body.replaceChildren());

  function renderedPage(path: string) {
    window.history.replaceState(null, '', path);
    const main = document.createElement('main');
    main.id = 'main';
    main.innerHTML = `<div id="remote-mf_map" class="remote-outlet" ${SERVER_RENDERED_ATTRIBUTE}="${path}"><h1>Datenschutz</h1></div>`;
    document.body.append(main);
    return main.firstElementChild as HTMLElement;
  }
  const reroute = (path: string) => {
    window.history.replaceState(null, '', path);
    window.dispatchEvent(new CustomEvent('single-spa:before-routing-event'));
  };

  it("is the remote's container, for the remote to hydrate", () => {
    const container = renderedPage('/datenschutz');
    expect(remoteContainer('mf_map')).toBe(container);
    expect(document.querySelectorAll('.remote-outlet')).toHaveLength(1);
  });

  it('goes when the visitor leaves the page before its remote mounted, and stays while on it', () => {
    const container = renderedPage('/datenschutz');
    dropServerRenderingOnLeave();
    reroute('/datenschutz');
    expect(container.textContent).toBe('Datenschutz');
    reroute('/login');
    expect(container.textContent).toBe('');
    expect(container.hasAttribute(SERVER_RENDERED_ATTRIBUTE)).toBe(false);
  });
});
