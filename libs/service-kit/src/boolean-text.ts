import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';

/**
 * A boolean result: the text `true` or `false`; failures answer 4xx with a message instead
 * (docs/decisions.md, "Boolean results").
 */
export const BooleanText = Type.String({ enum: ['true', 'false'] });

/** The 200 response of a boolean route, declared as text so the OpenAPI document says so too. */
export const booleanTextResponse = {
  200: { description: 'The text true', content: { 'text/plain': { schema: BooleanText } } },
} as const;

/** Answer a boolean route's success. */
export function replyTrue(reply: FastifyReply): FastifyReply {
  return reply.type('text/plain; charset=utf-8').send('true');
}

/** An answer that is not JSON (a picture, a clip, a page, a plain text), declared by its media types. */
export function mediaResponse(
  description: string,
  types: string[],
  schema: object = { type: 'string', contentEncoding: 'binary' },
) {
  return { description, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
}
