/** What a document is called in lists: its `title`, else `name`, else its id. */
export function documentTitle(doc: Record<string, unknown>): string {
  for (const key of ['title', 'name', 'label', 'slug']) if (typeof doc[key] === 'string' && doc[key]) return doc[key] as string;
  return String(doc._id);
}
