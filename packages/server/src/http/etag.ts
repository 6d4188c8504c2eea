import type { RevisionCondition } from '../domain/documents/revision-condition.js';

/** The `ETag` of a document at revision `rev`: a strong validator (docs/api.md, "Documents"). */
export function documentEtag(rev: number): string {
  return `"${rev}"`;
}

/** The entity tags of an `If-Match` / `If-None-Match` list, weak tags by their value (RFC 9110 §13.1.1, §8.8.3). */
const tagsOf = (header: string) => header.split(',').map((t) => t.trim().replace(/^W\//, ''));

/** True when an `If-Match` / `If-None-Match` list names revision `rev` or is `*` (RFC 9110 §13.1.1; weak tags compare by value). */
export function etagMatches(header: string, rev: number): boolean {
  return tagsOf(header).some((t) => t === '*' || t === documentEtag(rev));
}

/**
 * An `If-Match` header as the revisions it allows: `*` any, otherwise those its tags name. A tag
 * that names no revision of ours allows none, so the write answers 412 (RFC 9110 §13.1.1).
 */
export function parseIfMatch(header: string | undefined): RevisionCondition | undefined {
  if (header === undefined) return undefined;
  const tags = tagsOf(header);
  if (tags.includes('*')) return 'any';
  return tags.flatMap((t) => {
    const m = /^"([1-9]\d{0,8})"$/.exec(t);
    return m ? [Number(m[1])] : [];
  });
}
