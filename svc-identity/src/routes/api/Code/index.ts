import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CODE_FEATURES, CODE_RULES } from '@lakecams/contracts';
import { ADMIN_ROLE, errorBody, FormFields, validateWith, booleanTextResponse, replyTrue } from '@lakecams/service-kit';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { announceUser } from '../../../messaging.ts';
import type { CodeRepository } from '../../../repositories/code-repository.ts';
import { errors, Uuid } from '../../../schemas.ts';
import type { IdentityComposition } from '../../../composition.ts';

export { CODE_FEATURES };

const CodeAssignmentSchema = Type.Object({
  id: Uuid,
  userId: Uuid,
  userName: Type.String(),
  code: Type.String(),
  feature: Type.String(),
  assignedAt: Type.String(),
});
const OwnedCodeAssignmentSchema = Type.Object({ ...CodeAssignmentSchema.properties, email: Type.String() });

const actingUser = (request: FastifyRequest) => request.principal?.actingUserId as string;

const codeRoutes: FastifyPluginAsyncTypebox<Pick<IdentityComposition, 'codes' | 'users'>> = async (
  app,
  { codes, users },
) => {
  /** Change codes and announce whose roles changed with them, in one transaction. */
  const changeRoles = <T>(work: (codes: CodeRepository) => Promise<T>, whose: (outcome: T) => string | undefined) =>
    codes.transaction(async (codes, trx) => {
      const outcome = await work(codes);
      const userId = whose(outcome);
      if (userId) await announceUser(trx, userId, 'roles');
      return outcome;
    });

  app.post(
    '/api/Code/CreateCodes',
    {
      onRequest: app.requireRole(ADMIN_ROLE),
      schema: {
        summary: 'Create feature codes (Admin)',
        querystring: Type.Object({
          feature: Type.Enum([...CODE_FEATURES]),
          count: Type.Integer({ minimum: 1, maximum: 1000, default: 1 }),
        }),
        response: { 200: Type.Array(Type.String()), ...errors },
      },
    },
    async (request) => codes.create(request.query.feature, request.query.count),
  );

  app.post(
    '/api/Code/RegisterCode',
    {
      onRequest: app.requireUser,
      preValidation: validateWith(CODE_RULES, 'query'),
      schema: {
        summary: 'Redeem a feature code for the acting user',
        querystring: FormFields(CODE_RULES),
        response: { 200: CodeAssignmentSchema, ...errors },
      },
    },
    async (request, reply) => {
      const assignment = await changeRoles(
        (codes) => codes.assign(request.query.code, actingUser(request)),
        (assigned) => assigned?.userId,
      );
      if (!assignment) return reply.code(400).send(errorBody(400, 'This code is not valid'));
      return assignment;
    },
  );

  app.get(
    '/api/Code/GetCodes',
    {
      onRequest: app.requireUser,
      schema: {
        summary: "The acting user's code assignments (an Admin's too: all of them are GetAllCodes)",
        response: { 200: Type.Array(CodeAssignmentSchema), ...errors },
      },
    },
    async (request) => codes.list(actingUser(request)),
  );

  app.get(
    '/api/Code/GetAllCodes',
    {
      onRequest: app.requireRole(ADMIN_ROLE),
      schema: {
        summary: "Every user's code assignments with their owner, newest first (Admin)",
        response: { 200: Type.Array(OwnedCodeAssignmentSchema), ...errors },
      },
    },
    async () => codes.listWithOwners(),
  );

  app.delete(
    '/api/Code/RemoveCodeAssignement',
    {
      onRequest: app.requireUser,
      schema: {
        summary: 'Remove one of the acting user’s code assignments',
        querystring: Type.Object({ codeAssignementGuid: Uuid }),
        response: { ...booleanTextResponse, ...errors },
      },
    },
    async (request, reply) => {
      const removed = await changeRoles(
        (codes) => codes.removeAssignment(request.query.codeAssignementGuid, actingUser(request)),
        (removed) => (removed ? actingUser(request) : undefined),
      );
      if (!removed) return reply.code(404).send(errorBody(404, 'Code assignment not found'));
      return replyTrue(reply);
    },
  );

  app.delete(
    '/api/Code/RemoveCodeAssignementFromSystem',
    {
      onRequest: app.requireRole(ADMIN_ROLE),
      schema: {
        summary: 'Remove a user’s code assignment and the code itself (Admin)',
        querystring: Type.Object({ userGuid: Uuid, codeAssignementGuid: Uuid }),
        response: { ...booleanTextResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { userGuid, codeAssignementGuid } = request.query;
      const removed = await changeRoles(
        (codes) => codes.removeFromSystem(codeAssignementGuid, userGuid),
        (removed) => (removed ? userGuid : undefined),
      );
      if (!removed) return reply.code(404).send(errorBody(404, 'Code assignment not found'));
      return replyTrue(reply);
    },
  );

  app.post(
    '/api/Code/AuthenticateUser',
    {
      onRequest: app.requireRole(ADMIN_ROLE),
      schema: {
        summary: "Confirm a user's email address by hand (Admin)",
        querystring: Type.Object({ userGuid: Uuid }),
        response: { ...booleanTextResponse, ...errors },
      },
    },
    async (request, reply) => {
      const confirmed = await users.transaction(async (users, trx) => {
        const confirmed = await users.confirmEmail(request.query.userGuid);
        if (confirmed) await announceUser(trx, request.query.userGuid, 'confirmed');
        return confirmed;
      });
      if (!confirmed) return reply.code(404).send(errorBody(404, 'User not found'));
      return replyTrue(reply);
    },
  );
};

export default codeRoutes;
