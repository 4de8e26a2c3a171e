export * from './best-of.ts';
export * from './camera-sources.ts';
export * from './domain.ts';
export * from './identity.ts';
export * from './picture-limits.ts';
export * from './routing.ts';
export * from './validation.ts';
