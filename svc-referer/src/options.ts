/** svc-referer's options: none of its own yet; the kit's runService reads the settings every service shares. */
export type RefererServiceOptions = Record<never, never>;
