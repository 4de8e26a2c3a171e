/** For tests of other packages: drive a capture with a picture of their own (`@lakecams/svc-imaging/testing`). */
export { captureTick } from './capture.ts';
