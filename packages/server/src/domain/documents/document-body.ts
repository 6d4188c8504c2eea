import { errors } from '../../errors.js';
import { STATUSES } from './system-fields.js';

/** A write's body: a JSON object, or 422. */
export function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.validation([{ field: '(body)', message: 'must be a JSON object' }], 'The body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** The body without system fields (`_id`, `_status`, …), which are not document fields. */
export function stripSystem(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !k.startsWith('_')));
}

/** The `_status` the body asks for, or `fallback` when it asks for none. */
export function statusOf(body: Record<string, unknown>, fallback: string): string {
  const s = body._status;
  if (s === undefined || s === null) return fallback;
  if (typeof s !== 'string' || !(STATUSES as readonly string[]).includes(s)) {
    throw errors.validation([{ field: '_status', message: `must be one of ${STATUSES.join(', ')}` }]);
  }
  return s;
}
