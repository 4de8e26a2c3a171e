/** svc-webcam's options: from its settings (config.ts) in its own process, from the embedded portal otherwise. */
export interface WebcamServiceOptions {
  /** Seed the demo cameras into an empty database (embedded mode). */
  demoCameras?: boolean;
}
