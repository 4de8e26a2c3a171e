import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler';
import { type FormRules, validateForm } from '@lakecams/contracts';
import type { FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { Type, type TInteger, type TObject, type TString } from 'typebox';
import { errorBody } from './plugins/errors.ts';

/**
 * preValidation hook applying a form's rules from @lakecams/contracts, so a failing request gets 400
 * with the same message the form shows. Runs before schema validation, which then checks types.
 */
export function validateWith(rules: FormRules, source: 'body' | 'query') {
  const hook = async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = source === 'body' ? request.body : request.query;
    const values =
      typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const errors = validateForm(rules, values);
    const first = Object.values(errors)[0];
    if (first) return reply.code(400).send(errorBody(400, first as string));
  };
  return Object.assign(hook, { [FORM_RULES]: { rules, source } });
}

/** Marks validateWith's hooks, so the OpenAPI document can state the rules they check. */
export const FORM_RULES = Symbol('form rules');

/** The form rules a route's hooks check, by where they look. */
export function formRulesOf(hooks: unknown): { rules: FormRules; source: 'body' | 'query' }[] {
  return [hooks].flat().flatMap((hook) =>
    typeof hook === 'function' && FORM_RULES in hook
      ? [
          (hook as unknown as Record<symbol, { rules: FormRules; source: 'body' | 'query' }>)[FORM_RULES] as {
            rules: FormRules;
            source: 'body' | 'query';
          },
        ]
      : [],
  );
}

/**
 * The schema of a form's fields (all text), each as long as its rule allows (`fallbackMaxLength` for a field
 * whose rule has no maximum), so the schema declares what `validateWith` checks with the form's messages.
 */
export function FormFields<R extends FormRules>(
  rules: R,
  fallbackMaxLength = 254,
): TObject<{ [K in keyof R]: TString }> {
  const fields = Object.entries(rules).map(([name, rule]) => [
    name,
    Type.String({ maxLength: rule.maxLength?.value ?? fallbackMaxLength }),
  ]);
  return Type.Object(Object.fromEntries(fields)) as TObject<{ [K in keyof R]: TString }>;
}

/** PostgreSQL's `integer`: ids (serial) and other whole numbers stored in such columns. */
export const DATABASE_INTEGER_MAX = 2_147_483_647;

/** An id of a row: a larger number could not be one, and would lose precision on the way. */
export const Id = (options: { description?: string } = {}): TInteger =>
  Type.Integer({ minimum: 1, maximum: DATABASE_INTEGER_MAX, ...options });
/** An id, or 0 (or absent) for a new row. */
export const IdOrNew = (): TInteger => Type.Integer({ minimum: 0, maximum: DATABASE_INTEGER_MAX });
export const isDatabaseId = (value: number) => Number.isInteger(value) && value >= 1 && value <= DATABASE_INTEGER_MAX;

/** A day `YYYY-MM-DD` that exists on the calendar. */
export const Day = (): TString => Type.String({ format: 'day', maxLength: 10 });
/** A day that exists, optionally with a valid time of that day (ISO 8601, as date inputs and JSON dates send). */
export const DayOrInstant = (): TString => Type.String({ format: 'day-or-instant', maxLength: 40 });
/** A picture's minute `yyyyMMddHHmm` that exists on the calendar. */
export const Minute = (): TString => Type.String({ format: 'minute', minLength: 12, maxLength: 12 });

const DAY = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?([Zz]|[+-](\d{2}):(\d{2}))?)?$/;
const MINUTE = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/;

function isCalendarDay(year: number, month: number, day: number): boolean {
  // Date.UTC rolls 2026-02-30 over into March: only a real day comes back unchanged.
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
const isClock = (hour: number, minute: number, second = 0) => hour < 24 && minute < 60 && second < 60;

/**
 * `2026-11-24`, with `instant` also `2026-11-24T13:45:00Z`; never `2026-13-45`, `2026-11-24T99:99:99Z`,
 * `2026-01-01xyz`, `0000-00-00`.
 */
export function isValidDay(text: string, instant = false): boolean {
  const match = DAY.exec(text);
  if (!match || (!instant && match[4] !== undefined)) return false;
  const [, year, month, day, hour, minute, second, , offsetHours, offsetMinutes] = match.map(Number);
  if (!isCalendarDay(year as number, month as number, day as number)) return false;
  if (match[4] !== undefined && !isClock(hour as number, minute as number, match[6] ? second : 0)) return false;
  return match[8] === undefined || isClock(offsetHours as number, offsetMinutes as number);
}

/** `202611241345`; not `999999999999`. */
export function isValidMinute(text: string): boolean {
  const match = MINUTE.exec(text);
  if (!match) return false;
  const [, year, month, day, hour, minute] = match.map(Number);
  return isCalendarDay(year as number, month as number, day as number) && isClock(hour as number, minute as number);
}

const DATE_FORMATS = new Set(['day', 'day-or-instant', 'minute', 'date', 'date-time']);
const NUL_KEYWORD = 'noNul';

/**
 * Messages of refused requests: `body/start is not a valid date`, `querystring/url must not contain NUL
 * characters`, else Fastify's own (`body/name must be string`).
 */
export function schemaErrorMessage(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const text = errors.map((error) => {
    const field = `${dataVar}${error.instancePath ?? ''}`;
    if (error.keyword === 'format' && DATE_FORMATS.has(String(error.params?.format)))
      return `${field} is not a valid date`;
    return `${field} ${error.message}`;
  });
  return new Error(text.join(', '));
}

/** Where the first NUL character is in a parsed request part (a string or a property name), as a JSON pointer. */
function nulAt(data: unknown): string | null {
  // A loop, not recursion: a deeply nested body must not exhaust the stack.
  const pending: [unknown, string][] = [[data, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        const at = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        if (key.includes('\u0000')) return at;
        pending.push([child, at]);
      }
    }
  }
  return null;
}

type Validate = ((data: unknown, context?: unknown) => boolean) & {
  errors?: FastifySchemaValidationError[] | null;
  schemaEnv?: unknown;
};

type SchemaNode = { type?: unknown; minimum?: number; anyOf?: SchemaNode[]; oneOf?: SchemaNode[] };

const DECIMAL_KEYWORD = 'decimal';
interface Spelling {
  pattern: RegExp;
  message: string;
}
const WHOLE = 'must be a whole number in decimal digits';
const DIGITS: Spelling = { pattern: /^[0-9]+$/, message: WHOLE };
const SIGNED_DIGITS: Spelling = { pattern: /^-?[0-9]+$/, message: WHOLE };
const SIGNED_DECIMAL: Spelling = { pattern: /^-?[0-9]+(\.[0-9]+)?$/, message: 'must be a number in decimal digits' };

/** The JSON types a schema (or any of its alternatives) admits. */
function typesOf(schema: SchemaNode): Set<string> {
  const own = [schema.type].flat().filter((type): type is string => typeof type === 'string');
  const alternatives = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((option) => [...typesOf(option)]);
  return new Set([...own, ...alternatives]);
}

/**
 * How each numeric field of a text part (query string, path, headers) must be spelled. Ajv would parse any text
 * JavaScript reads as a number (`1e3`, `0x10`, ` 5`, `1e309` as Infinity); the portal takes decimal digits only,
 * with a minus only where the field admits negative values.
 */
function decimalSpellings(schema: unknown): Map<string, Spelling> {
  const properties = (schema as { properties?: Record<string, SchemaNode> } | undefined)?.properties ?? {};
  const spellings = new Map<string, Spelling>();
  for (const [name, property] of Object.entries(properties)) {
    const types = typesOf(property);
    if (types.has('string')) continue;
    const negative = property.minimum === undefined || property.minimum < 0;
    if (types.has('number')) spellings.set(name, SIGNED_DECIMAL);
    else if (types.has('integer')) spellings.set(name, negative ? SIGNED_DIGITS : DIGITS);
  }
  return spellings;
}

/** The first numeric field of a text part spelled otherwise than in decimal digits, as a JSON pointer. */
function misspeltNumber(data: unknown, spellings: Map<string, Spelling>): { at: string; message: string } | null {
  if (spellings.size === 0 || typeof data !== 'object' || data === null) return null;
  for (const [name, spelling] of spellings) {
    const value = (data as Record<string, unknown>)[name];
    // A repeated query parameter arrives as a list; each of its values must be spelled right.
    const values = Array.isArray(value) ? value : [value];
    if (values.some((one) => typeof one === 'string' && !spelling.pattern.test(one)))
      return { at: `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`, message: spelling.message };
  }
  return null;
}

const refusal = (keyword: string, instancePath: string, message: string): FastifySchemaValidationError => ({
  keyword,
  instancePath,
  schemaPath: '',
  params: {},
  message,
});

/**
 * PostgreSQL cannot store NUL in text, and no name, url or text of the portal has one: refused in every part.
 * Numbers in text parts must be written in decimal digits (`spellings`).
 */
function checkedPart(validate: Validate, spellings = new Map<string, Spelling>()): Validate {
  const checked: Validate = Object.assign(
    (data: unknown, context?: unknown) => {
      const at = nulAt(data);
      if (at !== null) {
        checked.errors = [refusal(NUL_KEYWORD, at, 'must not contain NUL characters')];
        return false;
      }
      const misspelt = misspeltNumber(data, spellings);
      if (misspelt !== null) {
        checked.errors = [refusal(DECIMAL_KEYWORD, misspelt.at, misspelt.message)];
        return false;
      }
      const valid = validate(data, context);
      checked.errors = validate.errors ?? null;
      return valid;
    },
    // Fastify passes the parent to validators that have it, so Ajv can replace a coerced root value.
    { schemaEnv: validate.schemaEnv, errors: null },
  );
  return checked;
}

function calendarFormats(ajv: {
  addFormat(name: string, format: { type: 'string'; validate(text: string): boolean }): unknown;
}) {
  ajv.addFormat('day', { type: 'string', validate: (text) => isValidDay(text) });
  ajv.addFormat('day-or-instant', { type: 'string', validate: (text) => isValidDay(text, true) });
  ajv.addFormat('minute', { type: 'string', validate: isValidMinute });
}

/**
 * Fastify's validator factory for services: a JSON body keeps the types the client sent (`"10"` is no number,
 * `5` no string), while query strings and path parameters, which are text by nature, are parsed into the declared
 * types, numbers from decimal digits only. Every part refuses NUL characters; `day` and `minute` formats check the
 * calendar.
 */
export function requestValidators(ajvOptions: Record<string, unknown>): ValidatorFactory {
  const pool = AjvCompiler();
  // Fastify calls the compiler with the route's part (its types say an Ajv schema).
  const factory = (externalSchemas: Record<string, unknown>) => {
    const build = (coerceTypes: false | 'array') =>
      pool(externalSchemas as never, {
        customOptions: { ...ajvOptions, coerceTypes },
        plugins: [calendarFormats as never],
      }) as unknown as (route: { schema: unknown; httpPart?: string }) => Validate;
    const fromText = build('array');
    const asSent = build(false);
    return (route: { schema: unknown; httpPart?: string }) =>
      route.httpPart === 'body'
        ? checkedPart(asSent(route))
        : checkedPart(fromText(route), decimalSpellings(route.schema));
  };
  return factory as unknown as ValidatorFactory;
}
