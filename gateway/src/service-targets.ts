import type { ServiceName } from '@lakecams/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * Where a service answers: in the same process (embedded mode: requests are handed to its router
 * without a socket hop) or at a URL (distributed mode: proxied over HTTP).
 */
export type ServiceTarget = { kind: 'local'; app: FastifyInstance } | { kind: 'remote'; urls: string[] };

export type ServiceTargets = Record<ServiceName, ServiceTarget>;

export async function isTargetReady(target: ServiceTarget): Promise<boolean> {
  if (target.kind === 'local') return (await target.app.checkReadiness()).ready;
  // Ready when at least one replica is.
  const answers = await Promise.all(
    target.urls.map(async (url) => {
      const response = await fetch(new URL('/ready', url), {
        signal: AbortSignal.timeout(2000),
      }).catch(() => null);
      await response?.body?.cancel();
      return response?.ok ?? false;
    }),
  );
  return answers.some(Boolean);
}

/** Round-robin over a service's replicas. */
export function replicaPicker(urls: string[]): () => string {
  let next = 0;
  return () => {
    const url = urls[next % urls.length] as string;
    next += 1;
    return url;
  };
}
