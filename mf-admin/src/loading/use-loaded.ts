import { type DependencyList, useCallback, useEffect, useState } from 'react';
import { failureMessage } from '@lakecams/ui-kit';

export interface Loaded<T> {
  /** The last data loaded; kept while a reload runs so the page does not flicker. */
  data: T | undefined;
  loading: boolean;
  /** Why the last load failed, or null. */
  error: string | null;
  reload(): void;
  /** Change the loaded data in place, e.g. with the row a save answered. */
  update(change: (data: T) => T): void;
}

/**
 * Data a screen loads when it opens and again on `reload`; `load` null loads nothing (e.g. nothing
 * chosen yet). An answer that arrives after a newer load started is dropped.
 */
export function useLoaded<T>(load: (() => Promise<T>) | null, failure: string, deps: DependencyList): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [loading, setLoading] = useState(load !== null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps say when `load` means another thing; `round` forces a reload.
  useEffect(() => {
    let current = true;
    setError(null);
    if (!load) {
      setData(undefined);
      setLoading(false);
      return;
    }
    setLoading(true);
    load().then(
      (result) => {
        if (!current) return;
        setData(result);
        setLoading(false);
      },
      (reason: unknown) => {
        if (!current) return;
        console.error(failure, reason);
        setError(failureMessage(reason, failure));
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);

  const reload = useCallback(() => setRound((r) => r + 1), []);
  const update = useCallback((change: (data: T) => T) => {
    setData((current) => (current === undefined ? current : change(current)));
  }, []);
  return { data, loading, error, reload, update };
}
