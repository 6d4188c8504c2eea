/** A failure as one line of the summary: the client's `<status> <code>: <message>`, then the fields it names. */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const details = (err as { details?: Array<{ field: string; message: string }> }).details;
  if (!Array.isArray(details) || details.length === 0) return err.message;
  return `${err.message} (${details.map((d) => `${d.field}: ${d.message}`).join('; ')})`;
}

/** A problem of one item of the file, not of the connection: the import lists it and goes on. */
export class ItemError extends Error {}

/**
 * Whether an import may list this failure and go on: the server refused one item (an HTTP
 * status; a 403 may concern one type only), or the item itself is faulty. Anything else (a
 * server that no longer answers, a token refused with 401, a full disk) would fail every item
 * after it, so it stops the import, which can be run again.
 */
export function isItemFailure(err: unknown): boolean {
  if (err instanceof ItemError) return true;
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status !== 401;
}
