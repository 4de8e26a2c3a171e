import { DEMO_SOURCE_PATH } from '@lakecams/contracts';
import sharp from 'sharp';

export const DEMO_WIDTH = 2560;
export const DEMO_HEIGHT = 1440;

function hashOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Sky colours by hour: night, dawn, day, dusk. */
function skyAt(hour: number): [string, string] {
  if (hour < 6 || hour >= 21) return ['#0b1630', '#1d2b4f'];
  if (hour < 8) return ['#f7b267', '#9ecbe8'];
  if (hour < 18) return ['#4f9fdc', '#cfe8f7'];
  return ['#f28c5a', '#6c7fb4'];
}

/**
 * Whether a camera's URL names the built-in demo source: by its path, whatever the host (older portals seeded
 * their own address there), placeholders and all.
 */
export function isDemoSourceUrl(pattern: string): boolean {
  try {
    return new URL(pattern).pathname.startsWith(DEMO_SOURCE_PATH);
  } catch {
    return false;
  }
}

/**
 * A changing picture per demo camera: a lake scene whose light follows the time of day, a boat that
 * moves with the minutes, and the camera name with the local time. Rendered in-process at each capture, so
 * the pipeline runs without internet and no route serves a full-size picture to anybody.
 */
export async function renderDemoImage(camera: string, at: Date): Promise<Buffer> {
  const seed = hashOf(camera);
  const local = new Intl.DateTimeFormat('de-CH', {
    timeZone: 'Europe/Zurich',
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(at);
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Zurich', hour: 'numeric', hourCycle: 'h23' }).format(at),
  );
  const [skyTop, skyBottom] = skyAt(hour);
  const ridge = Array.from({ length: 9 }, (_, i) => {
    const x = (i * DEMO_WIDTH) / 8;
    const y = 520 + ((seed >> (i * 3)) % 220);
    return `${x},${y}`;
  }).join(' ');
  const boatX = ((at.getTime() / 60_000 + (seed % 97)) * 37) % DEMO_WIDTH;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${DEMO_WIDTH}" height="${DEMO_HEIGHT}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyBottom}"/></linearGradient>
    <linearGradient id="lake" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2f6f8f"/><stop offset="1" stop-color="#123a52"/></linearGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#sky)"/>
  <polygon points="0,${DEMO_HEIGHT} 0,700 ${ridge} ${DEMO_WIDTH},700 ${DEMO_WIDTH},${DEMO_HEIGHT}" fill="#3d5a4a"/>
  <rect y="860" width="100%" height="${DEMO_HEIGHT - 860}" fill="url(#lake)"/>
  <g transform="translate(${boatX.toFixed(0)},960)"><polygon points="0,0 180,0 150,40 30,40" fill="#f4f1ea"/><polygon points="80,-120 80,0 150,0" fill="#ffffff"/></g>
  <rect x="40" y="40" width="1100" height="150" rx="18" fill="#000" fill-opacity="0.45"/>
  <text x="80" y="112" font-family="DejaVu Sans, sans-serif" font-size="64" font-weight="bold" fill="#fff">${escapeXml(camera)}</text>
  <text x="80" y="168" font-family="DejaVu Sans, sans-serif" font-size="40" fill="#e6f1f8">${escapeXml(local)} · Demo</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
