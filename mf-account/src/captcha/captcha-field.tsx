import type { CaptchaAction } from '@lakecams/contracts';
import { useSessionClient } from '@lakecams/session';
import { useEffect, useRef, useState } from 'react';
import { type CaptchaProvider, captchaChallengePath } from '../api/account-api.ts';
import { useAccountApi } from '../api/use-account-api.ts';
import './captcha-field.css';
import { loadAltcha } from './load-altcha.ts';
import { loadRecaptcha } from './load-recaptcha.ts';

interface CaptchaFieldProps {
  action: CaptchaAction;
  /** The solved payload (sent as the `captcha` query parameter), or null while unsolved or expired. */
  onChange(payload: string | null): void;
  /** Solve at once rather than at the form's first focus: the visitor is already in the form (after a failed send). */
  solveNow?: boolean;
}

type WidgetEvent = CustomEvent<{ state?: string; payload?: string }>;

/** The widget element; created by hand so React never diffs the web component's own DOM. */
function createWidget(action: CaptchaAction, solveNow: boolean): HTMLElement {
  const widget = document.createElement('altcha-widget');
  widget.setAttribute('challenge', captchaChallengePath(action));
  // Solving starts when the form gets focus, so it is usually done when the visitor reaches the button.
  widget.setAttribute('auto', solveNow ? 'onload' : 'onfocus');
  widget.setAttribute('language', 'de');
  widget.setAttribute('name', 'captcha');
  return widget;
}

/** reCAPTCHA tokens live two minutes; a fresh one is fetched before that. */
const RECAPTCHA_RENEW_MS = 90_000;

/**
 * The captcha the portal is configured for: self-hosted ALTCHA by default, reCAPTCHA v3 when the server
 * says so (`GET /api/Captcha/Config`). A config that cannot be read falls back to ALTCHA.
 */
export function CaptchaField(props: CaptchaFieldProps) {
  const api = useAccountApi();
  const [provider, setProvider] = useState<CaptchaProvider | null>(null);
  useEffect(() => {
    let current = true;
    api
      .captchaConfig()
      .catch((): CaptchaProvider => ({ provider: 'altcha' }))
      .then((config) => {
        if (current) setProvider(config.provider === 'recaptcha' && config.siteKey ? config : { provider: 'altcha' });
      });
    return () => {
      current = false;
    };
  }, [api]);
  // In the field's box, as the widget will be: the form's end does not move when it comes.
  if (!provider)
    return (
      <div className="captcha-field">
        <p className="captcha-field__loading">Spam-Schutz wird geladen …</p>
      </div>
    );
  return provider.provider === 'recaptcha' ? (
    <RecaptchaField {...props} siteKey={provider.siteKey} />
  ) : (
    <AltchaField {...props} />
  );
}

/** Invisible reCAPTCHA v3: a token for the action, renewed while the form is open. */
function RecaptchaField({ action, onChange, siteKey }: CaptchaFieldProps & { siteKey: string }) {
  const [failed, setFailed] = useState(false);
  const report = useRef(onChange);
  report.current = onChange;
  useEffect(() => {
    let current = true;
    const renew = () =>
      loadRecaptcha(siteKey)
        .then((grecaptcha) => grecaptcha.execute(siteKey, { action }))
        .then(
          (token) => current && report.current(token),
          (error: unknown) => {
            console.error('The captcha could not be loaded', error);
            if (current) setFailed(true);
          },
        );
    void renew();
    const timer = setInterval(renew, RECAPTCHA_RENEW_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [siteKey, action]);
  return failed ? (
    <p className="form-field__error" role="alert">
      Die Prüfung gegen Spam konnte nicht geladen werden. Bitte laden Sie die Seite neu.
    </p>
  ) : (
    <p className="captcha-field__loading">Geschützt durch reCAPTCHA von Google.</p>
  );
}

/** The self-hosted ALTCHA proof of work. Remount it (a new `key`) for a fresh challenge. */
function AltchaField({ action, onChange, solveNow = false }: CaptchaFieldProps) {
  const api = useSessionClient().api;
  const host = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const report = useRef(onChange);
  report.current = onChange;

  useEffect(() => {
    const container = host.current;
    if (!container) return;
    let widget: HTMLElement | null = null;
    let current = true;
    const onStateChange = (event: Event) => {
      const { state, payload } = (event as WidgetEvent).detail ?? {};
      report.current(state === 'verified' && payload ? payload : null);
    };
    // The API root applies to the challenge too, so the widget fetches through the page's client.
    loadAltcha((url, init) => api.fetch(String(url), init)).then(
      () => {
        if (!current) return;
        // A visitor who started typing before the widget came sends no further first focus: solve now.
        const typing = container.closest('form')?.contains(document.activeElement) ?? false;
        widget = createWidget(action, solveNow || typing);
        widget.addEventListener('statechange', onStateChange);
        container.append(widget);
        setStatus('ready');
      },
      (error: unknown) => {
        console.error('The captcha could not be loaded', error);
        if (current) setStatus('failed');
      },
    );
    return () => {
      current = false;
      widget?.removeEventListener('statechange', onStateChange);
      widget?.remove();
    };
  }, [api, action, solveNow]);

  return (
    <div className="captcha-field">
      <div ref={host} />
      {status === 'loading' && <p className="captcha-field__loading">Spam-Schutz wird geladen …</p>}
      {status === 'failed' && (
        <p className="form-field__error" role="alert">
          Die Prüfung gegen Spam konnte nicht geladen werden. Bitte laden Sie die Seite neu.
        </p>
      )}
    </div>
  );
}
