/** The paging block of every list (`meta`). */
export interface ListMeta {
  total: number;
  limit: number;
  offset: number;
  /**
   * Document lists: `after` for the page that follows, null on the last page. Absent on other
   * lists and from servers without cursor pagination.
   */
  nextCursor?: string | null;
  /** Document lists only: present (false) when `total` is a lower bound, not an exact count. */
  totalExact?: false;
}

/** `{data, meta}`, the shape of every list answer. */
export interface ListResult<T> {
  data: T[];
  meta: ListMeta;
}
