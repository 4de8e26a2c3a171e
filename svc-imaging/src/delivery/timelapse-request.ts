const CLIP_FILE = /^(\d{4})-(\d{2})-(\d{2})\.mp4$/;

/** The day (`yyyyMMdd`) a clip's file name names, or why it names none: malformed, off the calendar or still to come. */
export function clipDayOf(file: string, today: string): { day: string } | { problem: string } {
  const match = CLIP_FILE.exec(file);
  if (!match) return { problem: 'Expected /api/Image/Timelapse/camera/<camera>/<yyyy-MM-dd>.mp4' };
  const [, yyyy, MM, dd] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(yyyy), Number(MM) - 1, Number(dd)));
  if (
    date.getUTCFullYear() !== Number(yyyy) ||
    date.getUTCMonth() + 1 !== Number(MM) ||
    date.getUTCDate() !== Number(dd)
  )
    return { problem: `${yyyy}-${MM}-${dd} is not a date` };
  const day = `${yyyy}${MM}${dd}`;
  if (day > today) return { problem: `${yyyy}-${MM}-${dd} is still to come` };
  return { day };
}

/**
 * The one byte range a `Range` header asks for (browsers seek in a video with them): null for the
 * whole file (no header, or a form we do not serve), 'unsatisfiable' when it lies beyond the file.
 */
export function byteRangeOf(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [, from, to] = match as unknown as [string, string, string];
  if (from === '') {
    const suffix = Math.min(Number(to), size);
    return suffix > 0 ? { start: size - suffix, end: size - 1 } : 'unsatisfiable';
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  return start < size && start <= end ? { start, end } : 'unsatisfiable';
}
