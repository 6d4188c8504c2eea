/** The paging block of every list (`meta`). */
export interface ListMeta {
  total: number;
  limit: number;
  offset: number;
  /** Document lists only: present (false) when `total` is a lower bound, not an exact count. */
  totalExact?: false;
}

/** `{data, meta}`, the shape of every list answer. */
export interface ListResult<T> {
  data: T[];
  meta: ListMeta;
}
