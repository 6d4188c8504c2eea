/**
 * A write's precondition on the stored revision (the HTTP layer makes it from `If-Match`):
 * `'any'` when any stored version will do, otherwise the revisions the write may apply to.
 */
export type RevisionCondition = 'any' | readonly number[];

/** True when a document stored at revision `rev` meets `condition`. */
export const revisionMatches = (condition: RevisionCondition, rev: number): boolean => condition === 'any' || condition.includes(rev);
