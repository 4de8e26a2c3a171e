import type { LayerLevel } from '@lakecams/contracts';

export const LEVEL_TITLES: Record<LayerLevel, string> = {
  BASE: 'Basis-Layer',
  TIME: 'Zeit-Layer',
  OFFLINE: 'Offline-Layer',
};

/** What each level does (README.md, "Partner pages and layers"). */
export const LEVEL_DESCRIPTIONS: Record<LayerLevel, string> = {
  BASE: 'Wird immer über das Bild gelegt, z. B. ein Logo.',
  TIME: 'Werbung: aktiv, wenn der Cron passt; mehrere aktive wechseln sich Bild für Bild ab.',
  OFFLINE: 'Ersetzt das Bild, wenn die Kamera länger nichts geliefert hat.',
};
