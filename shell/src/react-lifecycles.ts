import type { ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { CustomProps, LifeCycles } from 'single-spa';

/** Lifecycles that render one element into a container: the shell's own small apps need no more. */
export function reactLifecycles(
  getContainer: (props: CustomProps) => HTMLElement,
  element: ReactElement,
): LifeCycles<CustomProps> {
  let root: Root | null = null;
  return {
    bootstrap: async () => {},
    mount: async (props) => {
      root = createRoot(getContainer(props));
      root.render(element);
    },
    unmount: async () => {
      root?.unmount();
      root = null;
    },
  };
}
