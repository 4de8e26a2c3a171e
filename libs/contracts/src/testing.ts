import type { FieldRule } from './validation.ts';

export interface RuleViolation {
  case: string;
  value: string;
  message: string;
}

/**
 * One value breaking each part of a field's rule, with the message the rule gives for it; the server
 * tests and the form tests both walk every form rule with these. For `equalsField` the other
 * field must hold a different valid value.
 */
export function ruleViolations(field: string, rule: FieldRule): RuleViolation[] {
  const cases: RuleViolation[] = [];
  if (rule.required) cases.push({ case: `${field} empty`, value: '', message: rule.required });
  if (rule.minLength && rule.minLength.value > 1) {
    cases.push({
      case: `${field} too short`,
      value: 'x'.repeat(rule.minLength.value - 1),
      message: rule.minLength.message,
    });
  }
  if (rule.maxLength) {
    cases.push({
      case: `${field} too long`,
      value: 'x'.repeat(rule.maxLength.value + 1),
      message: rule.maxLength.message,
    });
  }
  if (rule.pattern) {
    // Spaces and "!" break most patterns we use (urls, emails, phones, passwords, crons); names refuse a
    // text-direction override instead.
    const length = Math.max(rule.minLength?.value ?? 8, 8);
    const pattern = new RegExp(rule.pattern.value);
    const value = ['x !'.repeat(length).slice(0, length), `${'x'.repeat(length - 1)}\u202E`].find(
      (candidate) => !pattern.test(candidate),
    );
    if (value === undefined) throw new Error(`No value breaks the pattern of ${field}`);
    cases.push({ case: `${field} pattern`, value, message: rule.pattern.message });
  }
  if (rule.oneOf) cases.push({ case: `${field} not a choice`, value: 'Etwas anderes', message: rule.oneOf.message });
  if (rule.range) {
    cases.push({ case: `${field} below range`, value: String(rule.range.min - 1), message: rule.range.message });
    cases.push({ case: `${field} above range`, value: String(rule.range.max + 1), message: rule.range.message });
    if (rule.range.integer) {
      cases.push({ case: `${field} fraction`, value: String(rule.range.min + 0.5), message: rule.range.message });
    }
  }
  if (rule.equalsField)
    cases.push({ case: `${field} differs`, value: 'Other!Pass9', message: rule.equalsField.message });
  return cases;
}

/**
 * Characters that make a name read otherwise than it is stored: text-direction overrides and isolates, zero-width
 * characters, joiners, the byte order mark, a soft hyphen, line breaks and other controls, a tag character.
 */
export const HIDDEN_CHARACTERS: readonly string[] = [
  '\u202E',
  '\u202A',
  '\u202D',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200B',
  '\u200C',
  '\u200D',
  '\u200E',
  '\u200F',
  '\u2060',
  '\uFEFF',
  '\u00AD',
  '\u061C',
  '\u180E',
  '\u3164',
  '\n',
  '\t',
  '\u0007',
  '\u007F',
  '\u0085',
  '\u2028',
  '\uDB40\uDC20',
  '\uDB40\uDC41',
];
