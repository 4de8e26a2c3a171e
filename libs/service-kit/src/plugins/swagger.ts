import swagger from '@fastify/swagger';
import { ACCESS_COOKIE } from '@lakecams/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { accessRuleOf } from './auth.ts';
import { ErrorSchema } from './errors.ts';

/** How callers prove who they are: the access token as a bearer header, or (picture routes) its cookie. */
export const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  accessCookie: { type: 'apiKey', in: 'cookie', name: ACCESS_COOKIE },
} as const;

type Schema = Record<string, unknown> & { response?: Record<string, unknown>; description?: string };

/**
 * The document's view of a route, the route itself untouched: who may call it (from the requireUser or
 * requireRole hook it carries) and the refusals every such route can answer.
 */
export function documentedSchema(
  schema: Schema | undefined,
  route: Pick<RouteOptions, 'onRequest' | 'preHandler' | 'config'>,
): Schema {
  const response: Record<string, unknown> = { ...schema?.response };
  const documented: Schema = { ...schema };
  const refusal = (status: number, description: string) => {
    response[status] ??= { ...ErrorSchema, description };
    // Without a success answer of its own, the route's 200 would no longer be listed.
    if (!schema?.response) response['200'] ??= { description: 'Default Response' };
    documented.response = response;
  };
  const rule = accessRuleOf(route.onRequest) ?? accessRuleOf(route.preHandler);
  // Every route hears the Impersonate header (an administrator acting as a user) before anything else.
  const headers = (schema?.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
  documented.headers = {
    ...headers,
    properties: {
      ...headers.properties,
      impersonate: {
        type: 'string',
        format: 'uuid',
        description: 'An administrator acts as this user: the call answers as it would for them',
      },
    },
  };
  refusal(400, 'The input does not fit the schema, or Impersonate is no user id');
  refusal(
    403,
    rule?.role
      ? `The caller lacks the role ${rule.role}, or sent Impersonate without being an administrator`
      : 'Impersonate sent by a caller who is not an administrator',
  );
  refusal(404, 'Impersonate names no known user');
  const cookie = (route.config as { acceptsAccessCookie?: boolean } | undefined)?.acceptsAccessCookie;
  // A public route that reads the cookie answers more to a signed-in caller: signing in is optional there.
  if (!rule && cookie) documented.security = [{}, { bearerAuth: [] }, { accessCookie: [] }];
  if (rule) {
    documented.security = [{ bearerAuth: [] }, ...(cookie ? [{ accessCookie: [] }] : [])];
    refusal(401, 'No valid access token');
    if (rule.role) {
      documented.description = [schema?.description, `Needs the role ${rule.role}.`].filter(Boolean).join(' ');
    }
  }
  return documented;
}

/** OpenAPI document of the service's routes at `/documentation/json`. */
export const swaggerPlugin = fp(
  async (app: FastifyInstance, options: { service: string; version: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: `lakecams ${options.service}`,
          version: options.version,
        },
        components: { securitySchemes: SECURITY_SCHEMES },
      },
      transform: ({ schema, url, route }) => ({
        schema: documentedSchema(schema as Schema | undefined, route) as never,
        url,
      }),
    });
    app.get('/documentation/json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'swagger' },
);
