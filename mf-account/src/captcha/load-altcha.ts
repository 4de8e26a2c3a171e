import type { AltchaGlobal } from 'altcha/types';

let loading: Promise<void> | null = null;

/**
 * Loads the widget and its German texts on first use, in a chunk of their own (bundled, no CDN),
 * and makes every widget fetch its challenge with `fetch`.
 */
export function loadAltcha(fetch: typeof globalThis.fetch): Promise<void> {
  loading ??= Promise.all([import('altcha'), import('altcha/i18n/de')]).then(() => {
    const altcha = (globalThis as unknown as { $altcha: AltchaGlobal }).$altcha;
    altcha.defaults.set({ fetch, hideFooter: true, language: 'de' });
  });
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
