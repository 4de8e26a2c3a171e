/** How svc-identity is set up in a given run mode (embedded: from the runner; distributed: from the environment). */
export interface IdentityOptions {
  /** PEM private key (Ed25519) access tokens are signed with. */
  jwtPrivateKey: string;
  accessTokenTtlSeconds?: number;
  refreshTokenTtlDays?: number;
  /** Mark the refresh cookie Secure (the portal is served over https). */
  cookieSecure?: boolean;
  /** Base URL of the portal, for links in mails (a function when it is known only after listening). */
  publicUrl?: string | (() => string);
  mail: {
    /** SMTP server; without it mails are written as .eml files to `outboxDir`. */
    smtpUrl?: string | undefined;
    outboxDir: string;
    from: string;
    /** Where contact messages go. */
    operatorEmail: string;
  };
  captcha: {
    /** HMAC secret signing ALTCHA challenges. */
    hmacSecret: string;
    /** reCAPTCHA v3 replaces ALTCHA when both keys are set. */
    recaptchaSiteKey?: string | undefined;
    recaptchaSecretKey?: string | undefined;
    /** Where reCAPTCHA tokens are verified (Google's siteverify unless set). */
    recaptchaVerifyUrl?: string | undefined;
  };
  /** First administrator: created on start when no admin exists. */
  admin?: { username: string; email: string; password: string } | undefined;
  /** Create a demo admin with a generated password when `admin` is not given (embedded mode). */
  demoAdmin?: boolean;
  /** Told the demo admin's credentials when this start created it (they are shown once). */
  onDemoAdminCreated?: (credentials: { username: string; password: string }) => void;
  /**
   * Requests per minute and client for register, recover-password, reset-password and contact; login counts
   * failures per account and address from it (`loginLimits`).
   */
  rateLimitPerMinute?: number;
}

export const DEFAULTS = {
  /** The portal's address in links of mails when none is configured (PUBLIC_URL). */
  publicUrl: 'http://localhost:8080',
  accessTokenTtlSeconds: 15 * 60,
  refreshTokenTtlDays: 14,
  confirmationTtlHours: 48,
  resetCodeTtlMinutes: 60,
  resetCodeMaxAttempts: 5,
  rateLimitPerMinute: 10,
  recaptchaVerifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
  /** reCAPTCHA v3 scores below this count as bots. */
  recaptchaMinScore: 0.5,
} as const;
