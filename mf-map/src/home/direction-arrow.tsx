import { normalizedDirection } from '../cameras/compass.ts';

/** An arrow pointing where the camera looks (0° = up = north). */
export function DirectionArrow({ direction }: { direction: number }) {
  return (
    <svg
      className="direction-arrow"
      viewBox="0 0 24 24"
      width="28"
      height="28"
      aria-hidden="true"
      focusable="false"
      style={{ transform: `rotate(${normalizedDirection(direction)}deg)` }}
    >
      <circle cx="12" cy="12" r="11" />
      <path d="M12 3.5 17.5 17 12 14 6.5 17Z" />
    </svg>
  );
}
