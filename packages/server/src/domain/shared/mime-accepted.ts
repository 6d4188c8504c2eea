/**
 * True when `mime` is in `accept`: entries ending in `/` (or `/*`) are prefixes (`image/`), others
 * exact types. An empty list accepts everything.
 */
export function mimeAccepted(mime: string, accept: readonly string[]): boolean {
  if (accept.length === 0) return true;
  const m = mime.toLowerCase();
  return accept.some((a) => {
    const entry = a.toLowerCase().replace(/\*$/, '');
    return entry.endsWith('/') ? m.startsWith(entry) : m === entry;
  });
}
