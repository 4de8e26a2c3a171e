import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CONTACT_RULES } from '@lakecams/contracts';
import { FormFields, validateWith } from '@lakecams/service-kit';
import { CaptchaQuery, errors, NOTHING } from '../../../schemas.ts';
import type { IdentityComposition } from '../../../composition.ts';

const contactRoutes: FastifyPluginAsyncTypebox<
  Pick<IdentityComposition, 'captcha' | 'messaging'> & {
    rateLimit: { max: number; timeWindow: number };
    operatorEmail: string;
  }
> = async (app, options) => {
  const { captcha, messaging } = options;
  app.post(
    '/api/Contact/Contact',
    {
      config: { rateLimit: options.rateLimit },
      preValidation: validateWith(CONTACT_RULES, 'body'),
      preHandler: captcha.requireCaptcha('contact'),
      schema: {
        summary: 'Send a message to the operator',
        querystring: CaptchaQuery,
        body: FormFields(CONTACT_RULES),
        response: { 200: NOTHING, ...errors },
      },
    },
    async (request, reply) => {
      const { mail, name, phone, message, subject } = request.body;
      await messaging.sendMail({
        to: options.operatorEmail,
        replyTo: mail,
        subject: `Kontakt: ${subject}`,
        text: `Von: ${name} <${mail}>\nTelefon: ${phone}\nBetreff: ${subject}\n\n${message}\n`,
      });
      return reply.type('application/octet-stream').send('');
    },
  );
};

export default contactRoutes;
