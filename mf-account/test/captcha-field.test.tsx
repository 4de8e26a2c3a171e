import { SessionContext } from '@lakecams/session';
import { createTestSession, jsonResponse } from '@lakecams/session/testing';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaptchaField } from '../src/captcha/captcha-field.tsx';

describe('CaptchaField with reCAPTCHA v3 configured', () => {
  afterEach(() => {
    delete window.grecaptcha;
    for (const script of document.head.querySelectorAll('script[src*="recaptcha"]')) script.remove();
  });

  it('loads Google’s script for the site key and reports a token for the action', async () => {
    const { session } = await createTestSession({
      routes: { '/api/Captcha/Config': () => jsonResponse({ provider: 'recaptcha', siteKey: 'site-key-1' }) },
    });
    const execute = vi.fn(async (_key: string, options: { action: string }) => `token-for-${options.action}`);
    const onChange = vi.fn();
    render(
      <SessionContext.Provider value={session}>
        <CaptchaField action="register" onChange={onChange} />
      </SessionContext.Provider>,
    );
    const script = await waitFor(() => {
      const found = document.head.querySelector<HTMLScriptElement>('script[src*="recaptcha"]');
      if (!found) throw new Error('no script yet');
      return found;
    });
    expect(script.src).toBe('https://www.google.com/recaptcha/api.js?render=site-key-1');
    window.grecaptcha = { ready: (callback) => callback(), execute };
    script.onload?.(new Event('load'));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('token-for-register'));
    expect(execute).toHaveBeenCalledWith('site-key-1', { action: 'register' });
    expect(screen.getByText(/reCAPTCHA/)).toBeTruthy();
  });
});

vi.mock('../src/captcha/load-altcha.ts', () => ({ loadAltcha: async () => {} }));

describe('CaptchaField with ALTCHA', () => {
  afterEach(cleanup);

  const altchaSession = async () =>
    (await createTestSession({ routes: { '/api/Captcha/Config': () => jsonResponse({ provider: 'altcha' }) } }))
      .session;
  const findWidget = () =>
    waitFor(() => {
      const found = document.querySelector('altcha-widget');
      if (!found) throw new Error('no widget yet');
      return found;
    });

  it("says it is loading inside the widget's box while the configuration is asked for", async () => {
    const { session } = await createTestSession({ routes: { '/api/Captcha/Config': () => new Promise(() => {}) } });
    render(
      <SessionContext.Provider value={session}>
        <CaptchaField action="contact" onChange={() => {}} />
      </SessionContext.Provider>,
    );
    expect(screen.getByText('Spam-Schutz wird geladen …').parentElement?.className).toBe('captcha-field');
  });

  it('solves at the first focus, and at once when asked again after a failed send', async () => {
    const session = await altchaSession();
    const field = (round: number) => (
      <SessionContext.Provider value={session}>
        <CaptchaField key={round} action="register" onChange={() => {}} solveNow={round > 0} />
      </SessionContext.Provider>
    );
    const view = render(field(0));
    const widget = await findWidget();
    expect(widget.getAttribute('auto')).toBe('onfocus');
    view.rerender(field(1));
    await waitFor(() => expect(document.querySelector('altcha-widget')?.getAttribute('auto')).toBe('onload'));
    expect(document.querySelectorAll('altcha-widget')).toHaveLength(1);
  });

  it('solves at once when the visitor is already typing in the form as it loads', async () => {
    const session = await altchaSession();
    render(
      <SessionContext.Provider value={session}>
        <form>
          <input aria-label="Vorname" />
          <CaptchaField action="register" onChange={() => {}} />
        </form>
      </SessionContext.Provider>,
    );
    screen.getByLabelText('Vorname').focus();
    const widget = await findWidget();
    expect(widget.getAttribute('auto')).toBe('onload');
  });
});
