/** Random per module instance: equal ids in shell and remotes prove the session is one shared singleton. */
export const instanceId: string = createInstanceId();

function createInstanceId(): string {
  // getRandomValues, unlike randomUUID, also works on plain-http origins.
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface SharedInstances {
  /** Something that is identical only when React is one instance, e.g. `React.useState`. */
  react: unknown;
  sessionInstanceId: string;
}

declare global {
  interface Window {
    __lakecams?: SharedInstances;
    __lakecams_remotes?: Record<string, SharedInstances>;
  }
}

/**
 * Publishes what the browser tests compare between shell and remotes: a duplicated React or session would
 * still render, only an identity check catches it (docs/architecture.md, "Module Federation: what to keep in mind").
 */
export function exposeSharedInstances(app: string, react: unknown): void {
  const instances: SharedInstances = { react, sessionInstanceId: instanceId };
  if (app === 'shell') {
    window.__lakecams = instances;
    return;
  }
  window.__lakecams_remotes ??= {};
  window.__lakecams_remotes[app] = instances;
}
