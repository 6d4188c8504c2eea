const MAX_SLUG = 96;

/** Lower-case, accents stripped, runs of other characters → `-`, trimmed, ≤ 96 chars (docs/api.md, "Documents"). */
export function slugify(input: string, maxLength = MAX_SLUG): string {
  const slug = input
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, Math.min(maxLength, MAX_SLUG)).replace(/-+$/g, '');
}
