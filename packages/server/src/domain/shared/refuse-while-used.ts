import { errors } from '../../errors.js';

/** Documents (and the field of each) that point at something about to be deleted. */
export interface Usage {
  id: string;
  type: string;
  path: string;
}

/**
 * 409 listing every document and field that still points at the item, so the caller can fix
 * them or repeat the delete with `force=true`. Nothing to list: nothing happens.
 */
export function refuseWhileUsed(usages: readonly Usage[], message: string, verb: 'referenced' | 'used'): void {
  if (usages.length === 0) return;
  throw errors.conflict(
    message,
    usages.map((u) => ({ field: u.path, message: `${verb} by ${u.type} ${u.id}` })),
  );
}
