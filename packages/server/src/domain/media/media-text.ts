import { errors, type ErrorDetail } from '../../errors.js';

export interface MediaText {
  alt?: string | null;
  title?: string | null;
}

const MAX_LENGTH = 1000;

/** `alt` and `title`: strings of at most 1 000 characters (null clears them on PATCH). */
export function checkMediaText(text: MediaText): void {
  const details: ErrorDetail[] = [];
  for (const field of ['alt', 'title'] as const) {
    const v = text[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') details.push({ field, message: 'must be a string' });
    else if ([...v].length > MAX_LENGTH) details.push({ field, message: `must be at most ${MAX_LENGTH} characters` });
  }
  if (details.length > 0) throw errors.validation(details);
}
