/** Picture names are capture minutes `yyyyMMddHHmm` in the region's time (Europe/Zurich). */
const ZONE = 'Europe/Zurich';

const parts = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

function zoneFields(at: number): Record<string, number> {
  const fields: Record<string, number> = {};
  for (const part of parts.formatToParts(at)) if (part.type !== 'literal') fields[part.type] = Number(part.value);
  return fields;
}

/** The region's wall clock at `at`, read as if it were UTC, minus `at`: its offset in ms. */
function offsetAt(at: number): number {
  const f = zoneFields(at);
  return (
    Date.UTC(f.year ?? 0, (f.month ?? 1) - 1, f.day ?? 1, f.hour ?? 0, f.minute ?? 0) - Math.floor(at / 60_000) * 60_000
  );
}

/** The moment a picture name stands for; null for what is no picture name. */
export function momentOf(name: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(name);
  if (!m) return null;
  const wall = Date.UTC(
    +(m[1] as string),
    +(m[2] as string) - 1,
    +(m[3] as string),
    +(m[4] as string),
    +(m[5] as string),
  );
  // Twice: the offset at the guess may differ from the one at the result across a change of summer time.
  const first = wall - offsetAt(wall);
  return new Date(wall - offsetAt(first));
}

/** `yyyy-MM-dd` of now in the region: the day the portal calls today. */
export function regionDay(at = Date.now()): string {
  const f = zoneFields(at);
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${f.year}-${two(f.month)}-${two(f.day)}`;
}

/** `HH:mm` of a picture name. */
export const clockOf = (name: string) => `${name.slice(8, 10)}:${name.slice(10, 12)}`;

/** `27.11.2026` of `2026-11-27`. */
export const dateLabel = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;

export type Lang = 'de' | 'en';

/** How old a picture is, as the portal's pages say it ("vor 3 Min."). */
export function ageText(taken: Date, now: number, lang: Lang): string {
  const minutes = Math.max(0, Math.floor((now - taken.getTime()) / 60_000));
  const de = lang === 'de';
  if (minutes < 1) return de ? 'gerade eben' : 'just now';
  if (minutes < 60) return de ? `vor ${minutes} Min.` : `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return de ? `vor ${hours} Std.` : `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return de ? `vor ${days} ${days === 1 ? 'Tag' : 'Tagen'}` : `${days} ${days === 1 ? 'day' : 'days'} ago`;
}
