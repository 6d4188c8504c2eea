const RETRIES = 5;
const MAX_WAIT_SECONDS = 60;

/**
 * Runs `call`, again after a 429 as the server asks (`retryAfter`, docs/api.md "Errors"), a few
 * times: an import writes many documents in a row, and a rate limit in front of the API (or a
 * later `security.rateLimit.api`) must slow it down, not fail it half-way.
 */
export async function whenNotLimited<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const e = err as { status?: unknown; error?: { retryAfter?: unknown }; retryAfter?: unknown };
      if (e?.status !== 429 || attempt >= RETRIES) throw err;
      const after = Number(e.error?.retryAfter ?? e.retryAfter ?? 1);
      const seconds = Number.isFinite(after) && after > 0 ? Math.min(after, MAX_WAIT_SECONDS) : 1;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}
