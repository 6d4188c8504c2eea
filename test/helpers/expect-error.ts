import { expect } from 'vitest';

export interface SpecError {
  code: string;
  message: string;
  details?: { field: string; message: string }[];
  retryAfter?: number;
}

/**
 * The spec's error body, exactly: `{error: {code, message, details?, retryAfter?}}` with the
 * status and a JSON content type. Takes the parts of a response so raw-socket answers fit too.
 */
export function expectSpecError(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  code: string,
): SpecError {
  const where = `${res.statusCode} ${res.body.slice(0, 500)}`;
  expect(res.statusCode, where).toBe(status);
  expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as { error: SpecError };
  expect(Object.keys(body), where).toEqual(['error']);
  expect(body.error.code, where).toBe(code);
  expect(typeof body.error.message, where).toBe('string');
  for (const key of Object.keys(body.error)) expect(['code', 'message', 'details', 'retryAfter'], where).toContain(key);
  for (const d of body.error.details ?? []) expect(d, where).toEqual({ field: expect.any(String), message: expect.any(String) });
  return body.error;
}

/** The fields an error body's `details` name, sorted: what a 422 or a 409 says is wrong, whatever order it lists them in. */
export function detailFields(res: { json(): unknown }): string[] {
  const { error } = res.json() as { error: SpecError };
  return (error.details ?? []).map((d) => d.field).sort();
}
