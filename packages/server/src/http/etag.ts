import type { RevisionCondition } from '../domain/documents/revision-condition.js';

/**
 * The `ETag` of a document at revision `rev`: a strong validator (docs/api.md, "Documents"). A
 * pending draft's is `"d<rev>"` (docs/drafts.md), so a main version's tag never matches a draft.
 */
export function documentEtag(rev: number, version: 'main' | 'draft' = 'main'): string {
  return version === 'draft' ? `"d${rev}"` : `"${rev}"`;
}

/** The entity tags of an `If-Match` / `If-None-Match` list, weak tags by their value (RFC 9110 §13.1.1, §8.8.3). */
const tagsOf = (header: string) => header.split(',').map((t) => t.trim().replace(/^W\//, ''));

/** True when an `If-Match` / `If-None-Match` list names revision `rev` or is `*` (RFC 9110 §13.1.1; weak tags compare by value). */
export function etagMatches(header: string, rev: number, version: 'main' | 'draft' = 'main'): boolean {
  const tag = documentEtag(rev, version);
  return tagsOf(header).some((t) => t === '*' || t === tag);
}

/** True when an `If-Match` / `If-None-Match` list holds `etag` (as sent, main or draft) or is `*`. */
export function etagListHas(header: string, etag: string): boolean {
  return tagsOf(header).some((t) => t === '*' || t === etag);
}

/**
 * An `If-Match` header as the revisions it allows: `*` any, otherwise those its tags name. A tag
 * that names no revision of ours allows none, so the write answers 412 (RFC 9110 §13.1.1).
 */
export function parseIfMatch(header: string | undefined, version: 'main' | 'draft' = 'main'): RevisionCondition | undefined {
  if (header === undefined) return undefined;
  const tags = tagsOf(header);
  if (tags.includes('*')) return 'any';
  const pattern = version === 'draft' ? /^"d([1-9]\d{0,8})"$/ : /^"([1-9]\d{0,8})"$/;
  return tags.flatMap((t) => {
    const m = pattern.exec(t);
    return m ? [Number(m[1])] : [];
  });
}
