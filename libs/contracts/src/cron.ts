/**
 * Layer crons, read by croner, the parser that schedules them (svc-imaging). Its own entry point
 * (`@lakecams/contracts/cron`), so croner reaches only the bundles that edit or draw layers.
 */
import { Cron } from 'croner';
import { CRON_MESSAGE, CRON_PATTERN, type FormRules } from './validation.ts';

const FIVE_FIELDS = new RegExp(CRON_PATTERN);

/**
 * A layer's cron as svc-imaging matches it: five fields, read as wall-clock time. Null when croner
 * refuses it (a value out of range, a step of 0, a range backwards, an empty list entry).
 */
export function layerCron(pattern: string): Cron | null {
  if (!FIVE_FIELDS.test(pattern)) return null;
  try {
    return new Cron(pattern.trim(), { paused: true, utcOffset: 0, mode: '5-part' });
  } catch {
    return null;
  }
}

/** A cron that croner reads and that fires at some time (not `0 0 31 2 *`). */
export function isCronDefinition(pattern: string): boolean {
  return layerCron(pattern)?.nextRun() != null;
}

/** A layer's cron: required, five fields, due again some time (docs/decisions.md, "Layer crons read by croner"). */
export const LAYER_RULES = {
  cron: {
    required: 'Cron definition wird benötigt',
    // Five fields with lists fit easily; the bound keeps a stored cron from becoming a text store.
    maxLength: { value: 100, message: 'A cron definition has at most 100 characters' },
    pattern: { value: CRON_PATTERN, message: CRON_MESSAGE },
    satisfies: { test: isCronDefinition, message: CRON_MESSAGE },
  },
} as const satisfies FormRules;
