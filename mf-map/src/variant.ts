declare const __MF_MAP_VARIANT_LABEL__: string | undefined;

/** Set at build time from MF_MAP_VARIANT_LABEL; empty in unit tests and ordinary builds. */
export const VARIANT_LABEL: string = typeof __MF_MAP_VARIANT_LABEL__ === 'string' ? __MF_MAP_VARIANT_LABEL__ : '';
