export { buildGateway, type GatewayOptions } from './app.ts';
export {
  devRemoteOriginsFrom,
  GatewayConfigSchema,
  remoteManifestsFrom,
  remoteTargetsFrom,
} from './config.ts';
export { DEFAULT_MAP_TILES, defaultRemoteManifests } from './plugins/frontends.ts';
export type { ServiceTarget, ServiceTargets } from './service-targets.ts';
export {
  contentSecurityPolicy,
  LOOPBACK_ORIGINS,
  newNonce,
  withScriptNonce,
} from './security-headers.ts';
