/**
 * A response body or log line as a test reads it: field by field, as `res.json()` (typed `any` by
 * light-my-request) already gives it. A type per route would check the test's types, not the
 * server's answers, which the assertions do.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: the assertions check the shape
export type JsonObject = Record<string, any>;
