/** What anonymous visitors get for the 16:9 demo cameras (POOR); boxes keep this ratio so nothing shifts. */
export const PREVIEW_SIZE = { width: 480, height: 270 } as const;

/** Cards in the first screen: a phone's first two, a desktop's first row (docs/decisions.md, "Card pictures in the
 * first screen"). */
export const EAGER_CARDS = 4;

/** How the picture of the card at `index` in a list loads: the first screen's at once, the first of them first. */
export function cardPictureLoading(index: number): { loading: 'eager' | 'lazy'; fetchPriority?: 'high' } {
  const loading = index < EAGER_CARDS ? 'eager' : 'lazy';
  return index === 0 ? { loading, fetchPriority: 'high' } : { loading };
}
