/**
 * Previous and Next through a list the server pages by `offset` and `limit` (docs/api.md,
 * "List queries"), with where the page is ("26–50 of 73"). Nothing is shown while one page holds it all.
 */
export function OffsetPager({
  label,
  offset,
  pageSize,
  total,
  onChange,
}: {
  /** The navigation landmark's name ("Pages of users"). */
  label: string;
  offset: number;
  pageSize: number;
  total: number;
  onChange(offset: number): void;
}) {
  if (total <= pageSize) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - pageSize))}>
        Previous
      </button>
      <span>
        {offset + 1}–{Math.min(offset + pageSize, total)} of {total}
      </span>
      <button type="button" disabled={offset + pageSize >= total} onClick={() => onChange(offset + pageSize)}>
        Next
      </button>
    </nav>
  );
}
