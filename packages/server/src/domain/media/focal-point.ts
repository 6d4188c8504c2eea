import { errors } from '../../errors.js';

/** Where `fit=cover` crops around: 0–1 from the left and from the top (docs/media.md, "Focal point"). */
export interface FocalPoint {
  x: number;
  y: number;
}

/** `null` (back to the centre) or `{x, y}` with both in 0–1; anything else is 422 naming the field. */
export function checkFocalPoint(value: unknown): asserts value is FocalPoint | null {
  if (value === null) return;
  const p = value as Partial<FocalPoint> | undefined;
  const inRange = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1;
  if (typeof p !== 'object' || p === null || !inRange(p.x) || !inRange(p.y))
    throw errors.validation([{ field: 'focalPoint', message: 'expected {x, y} with both between 0 and 1, or null' }]);
}
