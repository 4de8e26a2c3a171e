import { useEffect } from 'react';

/**
 * Sets `<meta name="keywords">` while the page is shown and removes it on leaving: only camera pages have keywords
 * (the gateway sends a camera page's in its HTML, which this takes over).
 */
export function useMetaKeywords(content: string): void {
  useEffect(() => {
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="keywords"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'keywords';
      document.head.append(meta);
    }
    meta.content = content;
    return () => meta.remove();
  }, [content]);
}
