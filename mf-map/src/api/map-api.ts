/**
 * Every `/api/…` path mf-map calls, in one place (docs/decisions.md, "One API module per remote, one route table");
 * the calls themselves sit beside the state they feed. Paths the gateway needs too live in libs/contracts.
 */
export const CAMERA_LIST_PATH = '/api/Webcam/GetImages';
export const SET_BEST_OF_PATH = '/api/Webcam/SetBestOf';
export const LIVE_EVENTS_PATH = '/api/Events/stream';
export const IMAGE_DAYS_PATH = '/api/Webcam/GetImageDays';
export const IMAGE_HISTORY_PATH = '/api/Webcam/GetImageHistory';
export const CAMERAS_PATH = '/api/Webcam/GetCameras';
