/**
 * When a pushed picture was taken: its EXIF DateTimeOriginal (else DateTime) when present and plausible, else
 * when it arrived. Cameras write local time without a zone unless OffsetTimeOriginal says otherwise: the region's
 * time, Europe/Zurich, like the rest of the portal.
 */
export function captureTimeOf(exif: Buffer | undefined, arrived: Date, timeZone = 'Europe/Zurich'): Date {
  const taken = exif ? exifDateTime(exif, timeZone) : null;
  // A camera whose clock is off by more than this gets its arrival time instead.
  const plausible =
    taken !== null &&
    taken.getTime() <= arrived.getTime() + PLAUSIBLE_AHEAD_MS &&
    taken.getTime() >= arrived.getTime() - PLAUSIBLE_BEHIND_MS;
  return plausible ? taken : arrived;
}

/** A picture may arrive a while after it was taken (a slow upload, a queue in the camera)… */
const PLAUSIBLE_BEHIND_MS = 24 * 3_600_000;
/** …but not before: a clock running ahead by more than this is wrong. */
const PLAUSIBLE_AHEAD_MS = 2 * 60_000;

const TAGS = { exifIfd: 0x8769, dateTime: 0x0132, dateTimeOriginal: 0x9003, offsetTimeOriginal: 0x9011 };

/** DateTimeOriginal (or IFD0's DateTime) of a raw EXIF block as sharp gives it (`Exif\0\0` + TIFF). */
export function exifDateTime(exif: Buffer, timeZone = 'Europe/Zurich'): Date | null {
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  if (tiff.length < 8) return null;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  if (!little && tiff.toString('latin1', 0, 2) !== 'MM') return null;
  const u16 = (at: number) => (at + 2 <= tiff.length ? (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at)) : -1);
  const u32 = (at: number) => (at + 4 <= tiff.length ? (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at)) : -1);
  /** The entries of the IFD at `offset`: tag → value offset (or the value itself for short ones). */
  const entries = (offset: number) => {
    const found = new Map<number, { count: number; at: number }>();
    const count = u16(offset);
    for (let i = 0; i < count && i < 512; i++) {
      const entry = offset + 2 + i * 12;
      const tag = u16(entry);
      const length = u32(entry + 4);
      if (tag < 0 || length < 0) break;
      // ASCII values over 4 bytes sit at the offset the entry names.
      found.set(tag, { count: length, at: length > 4 ? u32(entry + 8) : entry + 8 });
    }
    return found;
  };
  const ascii = (value: { count: number; at: number } | undefined) =>
    value && value.at >= 0 && value.at + value.count <= tiff.length
      ? tiff.toString('latin1', value.at, value.at + value.count).replace(/\0+$/, '')
      : null;
  const ifd0 = entries(u32(4));
  const exifIfd = ifd0.get(TAGS.exifIfd);
  const sub = exifIfd ? entries(u32(exifIfd.at)) : new Map();
  const text = ascii(sub.get(TAGS.dateTimeOriginal)) ?? ascii(ifd0.get(TAGS.dateTime));
  const match = text && /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as number[];
  const offset = ascii(sub.get(TAGS.offsetTimeOriginal));
  const zone = offset && /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  const wall = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second);
  if (Number.isNaN(wall)) return null;
  if (zone) {
    const sign = zone[1] === '-' ? -1 : 1;
    return new Date(wall - sign * (Number(zone[2]) * 60 + Number(zone[3])) * 60_000);
  }
  return new Date(wall - offsetMinutes(wall, timeZone) * 60_000);
}

/** The zone's offset from UTC in minutes at about this wall time (searched twice: daylight saving changes). */
function offsetMinutes(wall: number, timeZone: string): number {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  const at = (instant: number) => {
    const name = format.formatToParts(new Date(instant)).find((part) => part.type === 'timeZoneName')?.value ?? '';
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  };
  const first = at(wall);
  return at(wall - first * 60_000);
}
