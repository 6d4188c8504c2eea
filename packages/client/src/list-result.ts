/** The paging block of every list (`meta`). */
export interface ListMeta {
  total: number;
  limit: number;
  offset: number;
}

/** `{data, meta}`, the shape of every list answer. */
export interface ListResult<T> {
  data: T[];
  meta: ListMeta;
}
