import type { LayerLevel } from '@lakecams/contracts';

export const LEVEL_TITLES: Record<LayerLevel, string> = {
  BASE: 'Basis-Layer',
  TIME: 'Zeit-Layer',
  OFFLINE: 'Offline-Layer',
};

// As svc-imaging draws them (delivery/layer-composition.ts): a layer counts while active and its cron matches the
// capture minute; matching ads take turns by the camera's interval; the first active offline layer replaces the
// current picture of a silent (three intervals) or frozen camera, base and ad drawn over it.

/** What each level does, above its group. */
export const LEVEL_DESCRIPTIONS: Record<LayerLevel, string> = {
  BASE: 'Wird über jedes Bild gelegt, z. B. ein Logo oder ein Rahmen. Ein anderer Cron als * * * * * beschränkt das auf die passenden Aufnahmezeiten.',
  TIME: 'Werbung: wird über das Bild gelegt, wenn ihr Cron zur Aufnahmezeit passt. Passen mehrere, wechseln sie sich Bild für Bild ab: Bei drei Werbungen erscheint jede auf jedem dritten Bild.',
  OFFLINE:
    'Ersetzt das aktuelle Bild, solange die Kamera offline ist: drei Intervalle lang nichts geliefert oder zweimal genau dasselbe Bild. Basis-Layer und Werbung werden darüber gelegt. Es gilt der älteste aktive Offline-Layer, dessen Cron passt.',
};

/** What the layer's image becomes, under the file field of the layer dialog. */
export const LEVEL_IMAGE_HINTS: Record<LayerLevel, string> = {
  BASE: 'PNG mit Transparenz in der vollen Bildgrösse der Kamera; wird über das Kamerabild gelegt.',
  TIME: 'PNG mit Transparenz in der vollen Bildgrösse der Kamera; wird über das Kamerabild gelegt, wenn die Werbung an der Reihe ist.',
  OFFLINE:
    'Ersetzt das Kamerabild, solange die Kamera offline ist, und füllt es ganz aus; durchsichtige Stellen werden schwarz.',
};
