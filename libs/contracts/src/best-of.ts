import type { Image } from './domain.ts';

/** The `ImageCaptured` event: a stored picture with its quality score (0–100, 0 when frozen). */
export interface CapturedImage extends Image {
  score?: number | null;
  /**
   * The same bytes as the camera's previous picture (svc-imaging's "frozen" rule); absent when the picture is
   * announced again (a moved position) and what was said of it stands.
   */
  frozen?: boolean;
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
