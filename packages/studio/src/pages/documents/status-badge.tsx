/** A document's status (`draft`, `published`, `archived`) as a coloured badge. */
export function StatusBadge({ status }: { status: unknown }) {
  const s = String(status ?? 'draft');
  return <span className={`badge badge-${s}`}>{s}</span>;
}
