import { ownerOfApiPath, PICTURE_PATH_PREFIX, SERVICES, type ServiceName } from '@lakecams/contracts';
import type { ServiceTarget, ServiceTargets } from './service-targets.ts';

/** The parts of an OpenAPI 3.1 document the merge reads and writes. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  tags?: { name: string }[];
  [key: string]: unknown;
}

/** Routes the gateway answers itself, beside the services'. */
const GATEWAY_PATHS: OpenApiDocument['paths'] = {
  '/api/Events/stream': {
    get: {
      summary: 'New pictures as server-sent events (`image` events carrying the image, as GetImages lists it)',
      responses: {
        200: { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      },
    },
  },
};

/** Whether the gateway sends a path to this service, so the merged document lists it as routed. */
function routedTo(service: ServiceName, path: string): boolean {
  if (path.startsWith(PICTURE_PATH_PREFIX)) return service === 'imaging';
  return ownerOfApiPath(path) === service;
}

/** A service's own document, from the first replica that answers. */
export async function serviceDocument(target: ServiceTarget): Promise<OpenApiDocument | null> {
  if (target.kind === 'local') {
    const answer = await target.app.inject({ url: '/documentation/json' });
    return answer.statusCode === 200 ? (answer.json() as OpenApiDocument) : null;
  }
  for (const url of target.urls) {
    const answer = await fetch(new URL('/documentation/json', url), { signal: AbortSignal.timeout(5000) }).catch(
      () => null,
    );
    if (answer?.ok) return (await answer.json()) as OpenApiDocument;
    await answer?.body?.cancel();
  }
  return null;
}

/**
 * One document for the whole API: each service's paths that the gateway routes to it, their components, and
 * the gateway's own. A component two services define differently would be ambiguous, so that is an error.
 */
export function mergeDocuments(parts: { service: ServiceName; document: OpenApiDocument }[], version: string) {
  const merged: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Seecam Zürichsee API',
      version,
      description:
        'Every call of the portal, as the gateway routes it. Access tokens come from POST /api/Authenticate/Authenticate.',
    },
    paths: { ...GATEWAY_PATHS },
    components: {},
  };
  const components = merged.components as Record<string, Record<string, unknown>>;
  for (const { service, document } of parts) {
    for (const [path, operations] of Object.entries(document.paths ?? {})) {
      if (routedTo(service, path)) merged.paths[path] = operations;
    }
    for (const [kind, entries] of Object.entries(document.components ?? {})) {
      const into = components[kind] ?? {};
      components[kind] = into;
      for (const [name, value] of Object.entries(entries)) {
        if (name in into && JSON.stringify(into[name]) !== JSON.stringify(value))
          throw new Error(`Services define the OpenAPI component ${kind}/${name} differently`);
        into[name] = value;
      }
    }
  }
  merged.paths = Object.fromEntries(Object.entries(merged.paths).sort(([a], [b]) => a.localeCompare(b)));
  return merged;
}

/** The merged document, read again from the services at most once per `maxAgeMs`. */
export function mergedDocumentSource(targets: ServiceTargets, version: string, maxAgeMs = 30_000) {
  let cached: { at: number; document: Promise<OpenApiDocument> } | null = null;
  const load = async () => {
    const parts = await Promise.all(
      SERVICES.map(async (service) => {
        const document = await serviceDocument(targets[service]);
        if (!document) throw new Error(`svc-${service} did not give its OpenAPI document`);
        return { service, document };
      }),
    );
    return mergeDocuments(parts, version);
  };
  return (): Promise<OpenApiDocument> => {
    const now = Date.now();
    if (!cached || now - cached.at > maxAgeMs) {
      const document = load();
      cached = { at: now, document };
      document.catch(() => {
        cached = null;
      });
    }
    return cached.document;
  };
}
