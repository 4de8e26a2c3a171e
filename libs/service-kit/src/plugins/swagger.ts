import swagger from '@fastify/swagger';
import { ACCESS_COOKIE } from '@lakecams/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { accessRuleOf } from './auth.ts';
import type { FieldRule, FormRules } from '@lakecams/contracts';
import { formRulesOf } from '../validation.ts';
import { ErrorSchema } from './errors.ts';

/** How callers prove who they are: the access token as a bearer header, or (picture routes) its cookie. */
export const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  accessCookie: { type: 'apiKey', in: 'cookie', name: ACCESS_COOKIE },
} as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The fields of a multipart/form-data body the route reads itself, for the OpenAPI document only. */
    multipartBody?: object;
  }
}

type Schema = Record<string, unknown> & { response?: Record<string, unknown>; description?: string };
type ObjectSchema = { properties?: Record<string, Record<string, unknown>> } & Record<string, unknown>;

/** What a form rule checks, as JSON Schema keywords on its field. */
function ruleKeywords(rule: FieldRule): Record<string, unknown> {
  return {
    ...(rule.minLength ? { minLength: rule.minLength.value } : {}),
    ...(rule.maxLength ? { maxLength: rule.maxLength.value } : {}),
    ...(rule.pattern ? { pattern: rule.pattern.value } : {}),
    ...(rule.oneOf ? { enum: [...rule.oneOf.values] } : {}),
    ...(rule.range ? { minimum: rule.range.min, maximum: rule.range.max } : {}),
  };
}

/** The schema with each field's form rule stated on it (the rule is what the route checks first). */
function withRules(schema: unknown, rules: FormRules): ObjectSchema | undefined {
  const object = schema as ObjectSchema | undefined;
  if (!object?.properties) return object;
  const properties = Object.fromEntries(
    Object.entries(object.properties).map(([name, property]) => {
      const rule = rules[name];
      return [name, rule ? { ...property, ...ruleKeywords(rule) } : property];
    }),
  );
  return { ...object, properties };
}

/**
 * The document's view of a route, the route itself untouched: who may call it (from the requireUser or
 * requireRole hook it carries) and the refusals every such route can answer.
 */
export function documentedSchema(
  schema: Schema | undefined,
  route: Pick<RouteOptions, 'onRequest' | 'preHandler' | 'preValidation' | 'config'> &
    Partial<Pick<RouteOptions, 'method'>>,
): Schema {
  const response: Record<string, unknown> = { ...schema?.response };
  const documented: Schema = { ...schema };
  const multipart = (route.config as { multipartBody?: object } | undefined)?.multipartBody;
  if (multipart) {
    documented.body = multipart;
    documented.consumes = ['multipart/form-data'];
  }
  for (const { rules, source } of [...formRulesOf(route.preValidation), ...formRulesOf(route.preHandler)]) {
    const key = source === 'body' ? 'body' : 'querystring';
    if (documented[key]) documented[key] = withRules(documented[key], rules);
  }
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
  if (schema?.params) refusal(414, 'A path segment is longer than 100 characters');
  // Any method but GET and HEAD may carry a body, and the service kit reads JSON and (where a route takes one) forms.
  if ([route.method ?? 'GET'].flat().some((method) => method !== 'GET' && method !== 'HEAD')) {
    refusal(413, 'The body is larger than the route takes (JSON: 1 MB)');
    refusal(415, 'The body is neither JSON in UTF-8 nor, where the route takes one, multipart/form-data');
  }
  response['431'] ??= { description: 'The request headers are too large (no body)', type: 'null' };
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
