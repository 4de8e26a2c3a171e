/** The time slider over one day's images, and the timelapse that plays them. */
export interface Timelapse {
  /** Number of images of the chosen day. */
  count: number;
  /** The selected image (0 = oldest). */
  index: number;
  playing: boolean;
}

export type TimelapseAction =
  /** Slider or arrow keys: the viewer takes over, so playing stops. */
  | { type: 'select'; index: number }
  | { type: 'step'; by: number }
  | { type: 'play' }
  | { type: 'pause' }
  /** A frame of the timelapse: advances only when the next image is there, stops after the last. */
  | { type: 'tick'; isReady: (index: number) => boolean }
  /** Another day's images: start at its latest. */
  | { type: 'load'; count: number }
  /**
   * Images joined the day: a viewer at the latest image keeps seeing the latest; any other viewer keeps the
   * picture chosen, now at `keep` (a late picture older than it moves it up by one).
   */
  | { type: 'grow'; count: number; keep?: number };

const clamp = (index: number, count: number) => Math.min(Math.max(Math.round(index), 0), Math.max(count - 1, 0));

export function initialTimelapse(count: number): Timelapse {
  return { count, index: Math.max(count - 1, 0), playing: false };
}

export function isAtLatest(state: Timelapse): boolean {
  return state.index >= state.count - 1;
}

export function timelapseReducer(state: Timelapse, action: TimelapseAction): Timelapse {
  switch (action.type) {
    case 'select':
      return { ...state, index: clamp(action.index, state.count), playing: false };
    case 'step':
      return { ...state, index: clamp(state.index + action.by, state.count), playing: false };
    case 'play':
      if (state.count < 2) return state;
      // Playing from the latest image starts the day over.
      return { ...state, index: isAtLatest(state) ? 0 : state.index, playing: true };
    case 'pause':
      return state.playing ? { ...state, playing: false } : state;
    case 'tick': {
      if (!state.playing) return state;
      const next = state.index + 1;
      if (next >= state.count) return { ...state, playing: false };
      return action.isReady(next) ? { ...state, index: next } : state;
    }
    case 'load':
      return initialTimelapse(action.count);
    case 'grow': {
      if (action.count <= state.count) return state;
      const follow = isAtLatest(state) && !state.playing;
      const index = follow ? action.count - 1 : clamp(action.keep ?? state.index, action.count);
      return { ...state, count: action.count, index };
    }
  }
}

/**
 * Which images to fetch, most urgent first: the selected one, then the ones after it (a timelapse
 * plays forward), then the ones before it; at most `ahead` and `behind` of them.
 */
export function preloadOrder(count: number, from: number, ahead: number, behind: number): number[] {
  if (count <= 0) return [];
  const start = clamp(from, count);
  const order = [start];
  for (let i = start + 1; i < count && i <= start + ahead; i++) order.push(i);
  for (let i = start - 1; i >= 0 && i >= start - behind; i--) order.push(i);
  return order;
}
