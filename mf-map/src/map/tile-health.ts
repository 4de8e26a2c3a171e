/** Tiles a map has tried so far. */
export interface TileCounts {
  loaded: number;
  failed: number;
}

/** Fewer failures than this may be a flaky tile or two, not a tile server that is down or blocked. */
const FAILURES_TO_JUDGE = 4;

/** The map's background is unavailable when at least four tiles and four in five of those tried failed. */
export function tilesUnavailable({ loaded, failed }: TileCounts): boolean {
  return failed >= FAILURES_TO_JUDGE && failed >= 4 * loaded;
}
