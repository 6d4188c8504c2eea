/** A 404 from the client, read from its `status` rather than its class: the CLI may load another copy of the client. */
export function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { status?: unknown }).status === 404;
}
