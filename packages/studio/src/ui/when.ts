/** A moment from the server (ISO text) in the browser's locale and zone; none is a dash. */
export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
