import type {
  CaptchaAction,
  CodeAssignment,
  ContactModel,
  ProfileUpdate,
  RegisterModel,
  ResetPasswordModel,
  UserSummary,
} from '@lakecams/contracts';
import { type ApiClient, ApiError } from '@lakecams/session';

const postJson = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

const withQuery = (path: string, query: Record<string, string>) => `${path}?${new URLSearchParams(query)}`;

async function expectOk(response: Response, path: string): Promise<void> {
  if (!response.ok) throw await ApiError.from(response, path);
  await response.body?.cancel();
}

/** A boolean call that answered `false` failed as well. */
async function expectTrue(result: Promise<boolean>, path: string): Promise<void> {
  if (!(await result)) throw new ApiError(200, path);
}

/** Which captcha the portal asks for (`GET /api/Captcha/Config`). */
export type CaptchaProvider = { provider: 'altcha' } | { provider: 'recaptcha'; siteKey: string };

/** Where the ALTCHA widget fetches its challenge for `action`. */
export const captchaChallengePath = (action: CaptchaAction) => `/api/Captcha/Challenge?action=${action}`;

/** The calls of the account screens: Register, RegisterConfirm, Code, Contact, Captcha. */
export function accountApi(api: ApiClient) {
  return {
    register: (model: RegisterModel, captcha: string) => {
      const path = withQuery('/api/Register/Register', { captcha });
      return expectTrue(api.boolean(path, postJson(model)), path);
    },
    confirmRegistration: async (userEmail: string, token: string) => {
      const path = withQuery('/api/RegisterConfirm/Confirm', { userEmail, token });
      if ((await api.json<unknown>(path, { method: 'PUT' })) !== true) throw new ApiError(200, path);
    },
    recoverPassword: (email: string) => {
      const path = withQuery('/api/Register/RecoverPassword', { email });
      return api.boolean(path, { method: 'POST' });
    },
    resetPassword: (model: ResetPasswordModel) =>
      expectTrue(api.boolean('/api/Register/ResetPassword', postJson(model)), '/api/Register/ResetPassword'),
    updateProfile: (update: ProfileUpdate) => api.json<UserSummary>('/api/Register/Update', postJson(update)),
    /** The result and errors are ignored: the roles and codes shown afterwards tell the outcome. */
    registerCode: async (code: string) => {
      try {
        const response = await api.fetch(withQuery('/api/Code/RegisterCode', { code }), { method: 'POST' });
        await response.body?.cancel();
      } catch {
        // ignored silently
      }
    },
    codeAssignments: () => api.json<CodeAssignment[]>('/api/Code/GetCodes'),
    removeCodeAssignment: (codeAssignementGuid: string) => {
      const path = withQuery('/api/Code/RemoveCodeAssignement', { codeAssignementGuid });
      return expectTrue(api.boolean(path, { method: 'DELETE' }), path);
    },
    contact: async (model: ContactModel, captcha: string) => {
      const path = withQuery('/api/Contact/Contact', { captcha });
      await expectOk(await api.fetch(path, postJson(model)), path);
    },
    captchaConfig: () => api.json<CaptchaProvider>('/api/Captcha/Config'),
  };
}

export type AccountApi = ReturnType<typeof accountApi>;
