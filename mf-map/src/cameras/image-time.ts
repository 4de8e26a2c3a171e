/** Image names are `yyyyMMddHHmm` in Zurich time; these read them without time-zone arithmetic. */

const IMAGE_NAME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/;

interface ImageTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function partsOf(imageName: string): ImageTime | null {
  const match = IMAGE_NAME.exec(imageName);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  return { year, month, day, hour, minute };
}

const two = (n: number) => String(n).padStart(2, '0');

/** `202611221235` → `12:35` */
export function clockTimeOf(imageName: string): string {
  const t = partsOf(imageName);
  return t ? `${two(t.hour)}:${two(t.minute)}` : imageName;
}

/** `202611221235` → `2026-11-22`, the day key of the image history. */
export function isoDayOf(imageName: string): string {
  const t = partsOf(imageName);
  return t ? `${t.year}-${two(t.month)}-${two(t.day)}` : '';
}

/** `2026-11-22` → `Sonntag, 22. November 2026` (de-CH; noon UTC keeps the calendar day in any zone). */
export function formatDay(isoDay: string, style: 'long' | 'short' = 'long'): string {
  const date = new Date(`${isoDay}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDay;
  return new Intl.DateTimeFormat('de-CH', {
    timeZone: 'UTC',
    ...(style === 'long'
      ? { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }
      : { weekday: 'short', day: '2-digit', month: '2-digit', year: 'numeric' }),
  }).format(date);
}

/** `202611221235` → `22.11.2026, 12:35` */
export function formatImageTime(imageName: string): string {
  const t = partsOf(imageName);
  return t ? `${two(t.day)}.${two(t.month)}.${t.year}, ${two(t.hour)}:${two(t.minute)}` : imageName;
}
