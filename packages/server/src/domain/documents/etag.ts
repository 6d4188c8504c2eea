/** The `ETag` of a document at revision `rev`: a strong validator (docs/api.md, "Documents"). */
export function documentEtag(rev: number): string {
  return `"${rev}"`;
}

/** True when an `If-Match` / `If-None-Match` list names revision `rev` or is `*` (RFC 9110 §13.1.1; weak tags compare by value). */
export function etagMatches(header: string, rev: number): boolean {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === documentEtag(rev));
}
