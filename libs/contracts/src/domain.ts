/** The shapes the API sends and takes: camelCase fields, enumerations as upper-case strings. */

export const WEBCAM_TYPES = ['STATIC', 'MOBILE', 'ROTATION'] as const;
export type WebcamType = (typeof WEBCAM_TYPES)[number];

export const QUALITIES = ['POOR', 'LOW', 'MEDIUM', 'HIGH', 'FULL'] as const;
export type Quality = (typeof QUALITIES)[number];

/**
 * Width of each quality level; FULL keeps the original. Each step roughly doubles the pixels,
 * so a level is visibly better than the one below.
 */
export const QUALITY_WIDTHS: Readonly<Record<Exclude<Quality, 'FULL'>, number>> = {
  POOR: 480,
  LOW: 800,
  MEDIUM: 1280,
  HIGH: 1920,
};

export const LAYER_LEVELS = ['BASE', 'TIME', 'OFFLINE'] as const;
export type LayerLevel = (typeof LAYER_LEVELS)[number];

export interface Webcam {
  id: number;
  name: string;
  /** URL the camera image is fetched from. */
  pattern: string;
  /** Visible distance in km. */
  distance: number;
  /** Angle of view in degrees. */
  angle: number;
  intervalMin: number;
  webcamType: WebcamType;
}

/** A user as svc-webcam names it in permissions and configurations. */
export interface UserRef {
  id: string;
  userName: string;
  email: string;
}

/** A camera's quality configuration: a quality for one user, or (user null) for all other users. */
export interface CameraConfiguration {
  id: number;
  user: UserRef | null;
  quality: Quality;
  webcam: { id: number; name: string };
}

/** A referer user's booking of a camera; start and end are whole days `YYYY-MM-DD`, both included. */
export interface RefererBooking {
  id: number;
  start: string;
  end: string;
  webcamId: number;
  quality: Quality;
  refererUserId: number | null;
  refererUserText: string | null;
}

/** Longest news banner text. */
export const NEWS_MAX_LENGTH = 1000;

/** A layer: an overlay image per referer url and camera; the image itself travels separately. */
export interface Layer {
  id: number;
  level: LayerLevel;
  /** Five-field cron; a TIME layer is active in the minutes it matches. */
  cron: string;
  enabled: boolean;
  /** The referer url (page) the layer belongs to. */
  url: string;
  cameraId: number;
}

/** Default of a new layer: every minute, enabled, BASE. */
export const NEW_LAYER_CRON = '* * * * *';
/** At most 60 advertisements (TIME layers) per camera, as the price list promises. */
export const MAX_TIME_LAYERS_PER_CAMERA = 60;

/** One piece of a layer image answered to a `LayerImage` request; bus messages stay well under 1 MB. */
export interface LayerImageChunk {
  total: number;
  /** Base64 of the bytes from the asked offset. */
  data: string;
}
export const LAYER_IMAGE_CHUNK_BYTES = 512 * 1024;

/** A camera as the public sees it (svc-webcam's answers to other services): its source URL may carry credentials. */
export type PublicWebcam = Webcam & { pattern: '' };

export interface Image {
  lat: number;
  lng: number;
  /** Direction of view in degrees, 0 = north. */
  direction: number;
  /** Capture timestamp `yyyyMMddHHmm`. */
  name: string;
  webcamId: number;
}

/** Camera list item: a webcam plus its images; shown only with at least one non-null image. */
export interface CameraListItem {
  webcam: Webcam;
  images: (Image | null)[];
}

/** Uniform error body of every service and the gateway. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

/** Camera names become paths and bus subjects: keep them to this shape. */
export const CAMERA_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';
export function isValidCameraName(name: string): boolean {
  return new RegExp(CAMERA_NAME_PATTERN).test(name);
}

export interface LocalDateParts {
  yyyy: string;
  MM: string;
  dd: string;
  HH: string;
  mm: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Building a formatter costs far more than using one: one per time zone, kept. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const MINUTE_MS = 60_000;
/** The last minute formatted per time zone: pictures ask for "now" on every request. */
const lastMinute = new Map<string, { minute: number; parts: LocalDateParts }>();

/** Year, month, day, hour and minute of a moment in the region's local time, zero-padded. */
export function localDateParts(date: Date, timeZone = 'Europe/Zurich'): LocalDateParts {
  // Time zone offsets are whole minutes, so one UTC minute is one local minute.
  const minute = Math.floor(date.getTime() / MINUTE_MS);
  const last = lastMinute.get(timeZone);
  if (last?.minute === minute) return { ...last.parts };
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) parts[part.type] = part.value;
  const local = {
    yyyy: parts.year ?? '',
    MM: parts.month ?? '',
    dd: parts.day ?? '',
    HH: parts.hour ?? '',
    mm: parts.minute ?? '',
  };
  if (Number.isFinite(minute)) lastMinute.set(timeZone, { minute, parts: local });
  return { ...local };
}

const zurichDateTime = new Intl.DateTimeFormat('de-CH', {
  timeZone: 'Europe/Zurich',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** `27.11.2026, 09:20`: a moment as pages and mails tell it, in the region's time. */
export function formatZurichDateTime(date: Date): string {
  return zurichDateTime.format(date);
}

/** Why a camera counts as offline, as pages and mails say it. */
export const OFFLINE_REASON_LABELS = { frozen: 'Bild eingefroren', silent: 'keine Lieferung' } as const;

/** Image names are capture timestamps `yyyyMMddHHmm` in the region's local time. */
export function imageNameOf(date: Date, timeZone = 'Europe/Zurich'): string {
  const { yyyy, MM, dd, HH, mm } = localDateParts(date, timeZone);
  return `${yyyy}${MM}${dd}${HH}${mm}`;
}
export const IMAGE_NAME_PATTERN = '^[0-9]{12}$';

/**
 * A demo camera's URL path (`<path><camera>.jpg`): svc-imaging renders such a camera's picture itself, on
 * whatever host the URL names (portals before this one seeded their own address), and nothing serves it.
 */
export const DEMO_SOURCE_PATH = '/api/Image/DemoSource/';
/** Where svc-webcam points its demo cameras; `.invalid` never resolves, so nothing is ever fetched from it. */
export const DEMO_SOURCE_BASE = `http://demo-source.invalid${DEMO_SOURCE_PATH.slice(0, -1)}`;
