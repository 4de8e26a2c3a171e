import type { Lang } from './time.ts';

/** What the player says, in the page's language (`lang`: de, the default, or en). */
export const TEXTS = {
  de: {
    picture: (camera: string) => `Webcam ${camera}`,
    day: 'Tag',
    moment: 'Zeitpunkt',
    timelapse: 'Zeitraffer',
    picture_back: 'Bild',
    zoom: 'Vergrössern',
    close: 'Schliessen',
    onPortal: (camera: string) => `${camera} auf Seecam`,
    credit: 'Seecam',
    noPictures: 'Noch kein Bild',
    live: 'Live',
  },
  en: {
    picture: (camera: string) => `Webcam ${camera}`,
    day: 'Day',
    moment: 'Moment',
    timelapse: 'Time-lapse',
    picture_back: 'Picture',
    zoom: 'Enlarge',
    close: 'Close',
    onPortal: (camera: string) => `${camera} on Seecam`,
    credit: 'Seecam',
    noPictures: 'No picture yet',
    live: 'Live',
  },
} satisfies Record<Lang, unknown>;

export type Texts = (typeof TEXTS)['de'];
