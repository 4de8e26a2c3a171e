import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CAPTCHA_ACTIONS, type CaptchaAction } from '@lakecams/contracts';
import { Type } from 'typebox';
import type { IdentityComposition } from '../../../composition.ts';

/**
 * The captcha the forms show: ALTCHA proof of work (self-hosted, works offline), or reCAPTCHA v3 when its keys
 * are configured (docs/product.md §5.7).
 */
const captchaRoutes: FastifyPluginAsyncTypebox<Pick<IdentityComposition, 'captcha'>> = async (app, { captcha }) => {
  app.get(
    '/api/Captcha/Config',
    {
      schema: {
        summary: 'Which captcha the forms use',
        response: { 200: Type.Object({ provider: Type.String(), siteKey: Type.Optional(Type.String()) }) },
      },
    },
    async () => captcha.config(),
  );

  app.get(
    '/api/Captcha/Challenge',
    {
      schema: {
        summary: 'A proof-of-work challenge for one form action',
        querystring: Type.Object({ action: Type.Enum([...CAPTCHA_ACTIONS]) }),
      },
    },
    async (request, reply) => {
      const { action } = request.query as { action: CaptchaAction };
      return reply.header('cache-control', 'no-store').send(await captcha.challenge(action));
    },
  );
};

export default captchaRoutes;
