import { BaseConfigSchema, loadConfig } from '@lakecams/service-kit';
import { type Static, Type } from 'typebox';
import type { RefererServiceOptions } from './options.ts';

/**
 * svc-referer's settings from the environment, read by its own process (server.ts) and by the embedded
 * portal (`npm start`): only those every service reads (address, log, database, bus, token key).
 */
export const RefererConfigSchema = Type.Object({
  ...BaseConfigSchema.properties,
});
export type RefererConfig = Static<typeof RefererConfigSchema>;

/** svc-referer has no options of its own (options.ts). */
export type RefererOptions = RefererServiceOptions;

/** Defaults applied and values converted; a wrong value throws a ConfigError naming the variable. */
export function loadRefererConfig(env: Record<string, string | undefined> = process.env): RefererConfig {
  return loadConfig(RefererConfigSchema, env);
}

/** The service options the settings stand for: none yet, the kit's runService reads the shared ones. */
export function refererOptionsFromConfig(_config: RefererConfig): RefererOptions {
  return {};
}
