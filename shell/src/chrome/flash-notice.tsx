import { FLASH_EVENT, type FlashMessage, takeFlashMessage } from '@lakecams/session';
import { useEffect, useReducer, useState } from 'react';

/**
 * What the last action did ("Ihre Nachricht ist gesendet"), on the page it led to, until dismissed or left
 * (docs/product.md §3.7).
 */
export function FlashNotice({ currentPath }: { currentPath: string }) {
  const [shown, setShown] = useState<FlashMessage | null>(null);
  const [left, messageLeft] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    window.addEventListener(FLASH_EVENT, messageLeft);
    return () => window.removeEventListener(FLASH_EVENT, messageLeft);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a newly left message is looked for again.
  useEffect(() => {
    const flash = takeFlashMessage(currentPath);
    setShown((current) => flash ?? (current?.path === currentPath ? current : null));
  }, [currentPath, left]);

  return (
    <div className="flash-notice" role="status">
      {shown && (
        <div className="flash-notice__box">
          <p>{shown.text}</p>
          <button type="button" className="flash-notice__close" onClick={() => setShown(null)}>
            Schliessen
          </button>
        </div>
      )}
    </div>
  );
}
