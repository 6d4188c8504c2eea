/** A failure as one line of the summary: the client's `<status> <code>: <message>`, then the fields it names. */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const details = (err as { details?: Array<{ field: string; message: string }> }).details;
  if (!Array.isArray(details) || details.length === 0) return err.message;
  return `${err.message} (${details.map((d) => `${d.field}: ${d.message}`).join('; ')})`;
}
