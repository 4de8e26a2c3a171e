import { Notice } from '@lakecams/ui-kit';
import type { Loaded } from './use-loaded.ts';

/** "Loading" before the first answer, and a failed load with a way to try again. */
export function LoadStatus({ loaded, loadingText }: { loaded: Loaded<unknown>; loadingText: string }) {
  if (loaded.error) {
    return (
      <Notice tone="error">
        <p>{loaded.error}</p>
        <button type="button" className="button--secondary" onClick={loaded.reload}>
          Erneut versuchen
        </button>
      </Notice>
    );
  }
  if (loaded.loading && loaded.data === undefined) return <p className="muted">{loadingText}</p>;
  return null;
}
