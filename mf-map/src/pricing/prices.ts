import type { Quality } from '@lakecams/contracts';

/** The published prices, in CHF (docs/product.md §4.10). */
export const PRICES = {
  /** An advertisement on a camera image of this site, per camera and month, shown in full quality. */
  advertisingPerCameraMonth: 10,
  maxAdvertisementsPerCamera: 60,
  /** A camera image on the customer's own site, per camera and month, by quality. */
  ownSitePerCameraMonth: { FULL: 25, HIGH: 20, MEDIUM: 15, LOW: 10 } satisfies Partial<Record<Quality, number>>,
  advertisingDesignPerHour: 120,
} as const;

export const QUALITY_LABELS: Readonly<Record<Quality, string>> = {
  POOR: 'Einfache Qualität',
  LOW: 'Tiefe Qualität',
  MEDIUM: 'Mittlere Qualität',
  HIGH: 'Hohe Qualität',
  FULL: 'Volle Qualität',
};

const chf = new Intl.NumberFormat('de-CH', { style: 'currency', currency: 'CHF' });

/** `25` → `CHF 25.00` (de-CH). */
export function formatChf(amount: number): string {
  return chf.format(amount);
}

/** The cheapest own-site price, for "ab CHF …" teasers. */
export function lowestOwnSitePrice(): number {
  return Math.min(...Object.values(PRICES.ownSitePerCameraMonth));
}
