import { exposeSharedInstances } from '@lakecams/session';
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';

/** single-spa lifecycles of a remote whose root is a React component. */
export function remoteLifecycles(name: string, rootComponent: React.FunctionComponent) {
  const lifecycles = singleSpaReact({
    React,
    ReactDOMClient,
    rootComponent,
    // The shell passes the error boundary and the container as custom props.
    suppressComponentDidCatchWarning: true,
  });
  const mount: typeof lifecycles.mount = (props) => {
    exposeSharedInstances(name, React.useState);
    return lifecycles.mount(props);
  };
  return { bootstrap: lifecycles.bootstrap, mount, unmount: lifecycles.unmount };
}
