/**
 * Form rules and messages, defined once: the forms show these messages and the
 * services answer a failing request with 400 and the same message.
 */
export interface FieldRule {
  /** Message when the value is missing or empty. */
  required?: string;
  minLength?: { value: number; message: string };
  maxLength?: { value: number; message: string };
  pattern?: { value: string; message: string };
  /** The value must equal another field of the same form. */
  equalsField?: { field: string; message: string };
  /** The value must be one of these. */
  oneOf?: { values: readonly string[]; message: string };
  /** A number within these bounds (inclusive); `integer` also refuses fractions. */
  range?: { min: number; max: number; integer?: boolean; message: string };
  /** A check a pattern cannot express (e.g. a parser's), after the pattern. */
  satisfies?: { test: (text: string) => boolean; message: string };
}

export type FormRules = Readonly<Record<string, FieldRule>>;

export const EMAIL_PATTERN =
  "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$";
/** Swiss phone number as `0xx xxx xx xx`. */
export const SWISS_PHONE_PATTERN = '^0\\d{2} \\d{3} \\d{2} \\d{2}$';
/** A lowercase letter, an uppercase letter, a digit, one of @$!%*?&, at least 8 characters. */
export const PASSWORD_PATTERN = '^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[@$!%*?&])[A-Za-z\\d@$!%*?&]{8,}$';
export const CONFIRMATION_TOKEN_MIN_LENGTH = 60;

function lengthRules(label: string, min: number, max: number): FieldRule {
  return {
    required: `${label} wird benötigt`,
    minLength: { value: min, message: `${label} must be longer then ${min - 1} characters` },
    maxLength: { value: max, message: `${label} must be shorter or equal then ${max} characters` },
  };
}

/**
 * Characters that change how a name reads without being seen (a regular expression character class's body):
 * controls and line breaks (NUL has its own message, from every service's validator), the soft hyphen,
 * text-direction marks, embeddings, overrides and isolates, zero-width spaces and joiners, the byte order mark,
 * fillers, variation selectors, and (read without the `u` flag, as the forms and services read it) the tag
 * characters of plane 14 by their lead surrogate.
 */
export const INVISIBLE_CHARACTERS =
  '\\u0001-\\u001F\\u007F-\\u009F\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFFB\\uDB40';

/**
 * A name people type and others read (first and last names, usernames, the contact form's name): its length, and
 * nothing invisible, so "admin" with a zero-width space or a name turned around by U+202E cannot pass for another
 * (docs/decisions.md, "Names people type").
 */
function nameRules(label: string, min: number, max: number): FieldRule {
  return {
    ...lengthRules(label, min, max),
    pattern: {
      value: `^[^${INVISIBLE_CHARACTERS}]*$`,
      message: `${label} must not contain invisible or text-direction characters`,
    },
  };
}

const username = nameRules('Username', 6, 50);
const password: FieldRule = {
  ...lengthRules('Password', 6, 50),
  pattern: {
    value: PASSWORD_PATTERN,
    message: 'Password require in minimum one digit (0-9), one lowercase (a-z) and one uppercase (A-Z), one non-digit.',
  },
};
const passwordConfirm: FieldRule = {
  required: 'Password Confirm wird benötigt',
  equalsField: { field: 'password', message: 'Password Confirm does not match the password' },
};
const email: FieldRule = {
  required: 'Emailaddress wird benötigt',
  maxLength: { value: 254, message: 'This is not a email address' },
  pattern: { value: EMAIL_PATTERN, message: 'This is not a email address' },
};
const phone: FieldRule = {
  required: 'Phone wird benötigt',
  pattern: { value: SWISS_PHONE_PATTERN, message: 'This is not a phone number' },
};
const code: FieldRule = {
  required: 'Code wird benötigt.',
  minLength: { value: 6, message: 'Code must be longer then 5 characters' },
  maxLength: { value: 500, message: 'Code must be shorter or equal then 500 characters' },
};

export const CONTACT_SUBJECTS = [
  'Probleme mit der Webseite',
  'Probleme mit der Registration dem Login',
  'Vorschlag für einen neuen Kamerastandort',
  'Einstellung einer Kamera',
  'Anderes',
] as const;

export const NAME_HINT = 'Min 2 and max 50 characters';

export const LOGIN_RULES = { username, password } as const satisfies FormRules;
export const FORGOT_PASSWORD_RULES = { email } as const satisfies FormRules;
export const REGISTER_RULES = {
  firstname: nameRules('Firstname', 2, 50),
  lastname: nameRules('Lastname', 2, 50),
  email,
  phoneNumber: phone,
  username,
  password,
  passwordConfirm,
} as const satisfies FormRules;
export const RESET_PASSWORD_RULES = {
  email,
  username,
  password,
  passwordConfirm,
  token: code,
} as const satisfies FormRules;
export const CONFIRM_REGISTRATION_RULES = {
  userEmail: email,
  token: {
    required: 'Token wird benötigt',
    minLength: { value: CONFIRMATION_TOKEN_MIN_LENGTH, message: 'This is not the token we sent you' },
    maxLength: { value: 500, message: 'This is not the token we sent you' },
  },
} as const satisfies FormRules;
export const CONTACT_RULES = {
  name: {
    required: 'Bitte geben Sie Ihren Namen ein',
    minLength: { value: 6, message: 'name must be more than 5 characters' },
    maxLength: { value: 50, message: 'name must not be more than 50 characters' },
    pattern: nameRules('Name', 6, 50).pattern,
  },
  mail: email,
  phone,
  subject: {
    required: 'Wählen Sie einen Betreff aus',
    oneOf: { values: CONTACT_SUBJECTS, message: 'Wählen Sie einen Betreff aus' },
  },
  message: {
    required: 'Bitte geben Sie eine längere Nachricht ein',
    minLength: { value: 6, message: 'Bitte geben Sie eine längere Nachricht ein' },
    maxLength: { value: 5000, message: 'Die Nachricht darf höchstens 5000 Zeichen lang sein' },
  },
} as const satisfies FormRules;
export const PROFILE_RULES = {
  firstName: nameRules('Firstname', 2, 50),
  lastName: nameRules('Lastname', 2, 50),
  phoneNumber: phone,
} as const satisfies FormRules;
export const CODE_RULES = { code } as const satisfies FormRules;

/** A http(s) URL (referer pages, pictures fetched). */
export const HTTP_URL_PATTERN = '^https?://[^\\s/$.?#][^\\s]*$';
/** A camera's URL: a picture or stream fetched (http, https, rtsp, rtsps), or where a pushing camera uploads (ftp). */
export const CAMERA_URL_PATTERN = '^(https?|rtsps?|ftps?)://[^\\s/$.?#][^\\s]*$';
export const CRON_MESSAGE = 'This is not a cron definition';
/** Five cron fields: minute, hour, day of month, month, day of week. */
export const CRON_PATTERN =
  '^\\s*([0-9*/,-]+)\\s+([0-9*/,-]+)\\s+([0-9*/,?LW-]+)\\s+([0-9A-Za-z*/,-]+)\\s+([0-9A-Za-z*/,?L#-]+)\\s*$';

/** A camera's login in the source dialog: any length a camera takes, but no invisible characters in its user. */
export const CAMERA_LOGIN_RULES = {
  username: {
    maxLength: { value: 200, message: 'Username must be shorter or equal then 200 characters' },
    pattern: {
      value: `^[^${INVISIBLE_CHARACTERS}]*$`,
      message: 'Username must not contain invisible or text-direction characters',
    },
  },
} as const satisfies FormRules;

/** Camera edit: name and url required; distance 1–20 km, angle 1–360, interval 1–60 minutes. */
export const CAMERA_RULES = {
  name: {
    required: 'Name wird benötigt',
    maxLength: { value: 64, message: 'Name must be shorter or equal then 64 characters' },
    pattern: { value: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$', message: 'Only letters, digits, - and _ (no spaces)' },
  },
  pattern: {
    required: 'Pattern (URL) wird benötigt',
    maxLength: { value: 2000, message: 'This is not a url' },
    pattern: { value: CAMERA_URL_PATTERN, message: 'This is not a url' },
  },
  distance: {
    required: 'Distance wird benötigt',
    range: { min: 1, max: 20, message: 'Distance must be between 1 and 20 km' },
  },
  angle: {
    required: 'Angle wird benötigt',
    range: { min: 1, max: 360, integer: true, message: 'Angle must be between 1 and 360' },
  },
  intervalMin: {
    required: 'Interval wird benötigt',
    range: { min: 1, max: 60, integer: true, message: 'Interval must be between 1 and 60 minutes' },
  },
} as const satisfies FormRules;

/**
 * Position dialog: latitude 47–48, direction 0–359. Longitude is checked against Switzerland's extent:
 * a bound of 47–48 like the latitude's would exclude the lake (8.6–8.9 E).
 */
export const POSITION_RULES = {
  lat: {
    required: 'Latitude wird benötigt',
    range: { min: 47, max: 48, message: 'Latitude must be between 47 and 48' },
  },
  lng: {
    required: 'Longitude wird benötigt',
    range: { min: 5.9, max: 10.5, message: 'Longitude must be between 5.9 and 10.5' },
  },
  direction: {
    required: 'Direction wird benötigt',
    range: { min: 0, max: 359, integer: true, message: 'Direction must be between 0 and 359' },
  },
} as const satisfies FormRules;

/** Referer dialog: an http(s) url and a chosen user. */
export const REFERER_RULES = {
  url: { required: 'Url wird benötigt', pattern: { value: HTTP_URL_PATTERN, message: 'This is not a url' } },
  userEmail: { required: 'User wird benötigt' },
} as const satisfies FormRules;

// The layer cron rule: LAYER_RULES in cron.ts (`@lakecams/contracts/cron`), checked by croner.

const compiled = new Map<string, RegExp>();
function regex(source: string): RegExp {
  let re = compiled.get(source);
  if (!re) {
    re = new RegExp(source);
    compiled.set(source, re);
  }
  return re;
}

/** The first message the value breaks, or null when valid. */
export function validateField(rule: FieldRule, value: unknown, values: object = {}): string | null {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  if (text === '') return rule.required ?? null;
  if (rule.minLength && text.length < rule.minLength.value) return rule.minLength.message;
  if (rule.maxLength && text.length > rule.maxLength.value) return rule.maxLength.message;
  if (rule.pattern && !regex(rule.pattern.value).test(text)) return rule.pattern.message;
  if (rule.satisfies && !rule.satisfies.test(text)) return rule.satisfies.message;
  if (rule.oneOf && !rule.oneOf.values.includes(text)) return rule.oneOf.message;
  if (rule.range) {
    const number = Number(text);
    const { min, max, integer, message } = rule.range;
    if (!Number.isFinite(number) || number < min || number > max || (integer && !Number.isInteger(number)))
      return message;
  }
  if (rule.equalsField && text !== (values as Record<string, unknown>)[rule.equalsField.field]) {
    return rule.equalsField.message;
  }
  return null;
}

/** Messages per invalid field; empty when the whole form is valid. */
export function validateForm<R extends FormRules>(rules: R, values: object): Partial<Record<keyof R, string>> {
  const errors: Partial<Record<keyof R, string>> = {};
  for (const [field, rule] of Object.entries(rules) as [keyof R & string, FieldRule][]) {
    const message = validateField(rule, (values as Record<string, unknown>)[field], values);
    if (message) errors[field] = message;
  }
  return errors;
}
