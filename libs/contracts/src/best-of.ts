import type { Image } from './domain.ts';

/** `imaging.image.captured`: a stored picture with its quality score (0–100, 0 when frozen). */
export interface CapturedImage extends Image {
  score?: number | null;
}

/** `GET /api/Webcam/GetBestOf`: a camera's best picture of a day. */
export interface BestOf {
  /** `yyyyMMddHHmm`. */
  name: string;
  score: number | null;
  chosenBy: 'score' | 'admin';
}

/** `GET /api/Webcam/GetBestOfDay`: the best picture of every camera that has pictures that day. */
export interface CameraBestOf extends BestOf {
  camera: string;
  webcamId: number;
}

/** `imaging.images.thinned`: of a camera's day (`yyyyMMdd`) only `keep` remain; the list forgets the others. */
export interface ImagesThinned {
  webcamId: number;
  day: string;
  keep: string[];
}

/** `webcam.bestof.chosen`: the admin's best of a camera's day (`yyyyMMdd`), or null when the score decides again. */
export interface BestOfChosen {
  webcamId: number;
  day: string;
  image: string | null;
}
