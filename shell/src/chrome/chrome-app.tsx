import { StrictMode } from 'react';
import { reactLifecycles } from '../react-lifecycles.ts';
import { Chrome } from './chrome.tsx';

function requiredElement(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html lacks #${id}`);
  return element;
}

/** The shell's own single-spa application, active on every path. */
export function chromeLifecycles() {
  return reactLifecycles(
    () => requiredElement('shell-header'),
    <StrictMode>
      <Chrome footerElement={requiredElement('shell-footer')} />
    </StrictMode>,
  );
}
