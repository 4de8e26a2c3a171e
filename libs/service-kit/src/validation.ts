import { type FormRules, validateForm } from '@lakecams/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './plugins/errors.ts';

/**
 * preValidation hook applying a form's rules from @lakecams/contracts, so a failing request gets 400
 * with the same message the form shows. Runs before schema validation, which then checks types.
 */
export function validateWith(rules: FormRules, source: 'body' | 'query') {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = source === 'body' ? request.body : request.query;
    const values =
      typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const errors = validateForm(rules, values);
    const first = Object.values(errors)[0];
    if (first) return reply.code(400).send(errorBody(400, first as string));
  };
}
