import { BaseConfigSchema, loadConfig } from '@lakecams/service-kit';
import { type Static, Type } from 'typebox';
import type { WebcamServiceOptions } from './options.ts';

/**
 * svc-webcam's settings from the environment, read by its own process (server.ts) and by the embedded
 * portal (`npm start`), which decides the demo cameras itself.
 */
export const WebcamConfigSchema = Type.Object({
  ...BaseConfigSchema.properties,
  /** Seed the demo cameras into an empty database. */
  DEMO_CAMERAS: Type.Boolean({ default: false }),
});
export type WebcamConfig = Static<typeof WebcamConfigSchema>;

/** Defaults applied and values converted; a wrong value throws a ConfigError naming the variable. */
export function loadWebcamConfig(env: Record<string, string | undefined> = process.env): WebcamConfig {
  return loadConfig(WebcamConfigSchema, env);
}

/** The service options the settings stand for. */
export function webcamOptionsFromConfig(config: WebcamConfig): WebcamServiceOptions {
  return { demoCameras: config.DEMO_CAMERAS };
}
