/** The content codings Vellum applies to responses, in the order it prefers them. */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/**
 * The coding for a response from `Accept-Encoding` (RFC 9110 §12.5.3): the acceptable coding with
 * the highest `q`, `br` before `gzip` on a tie; `*` stands for any coding not named; `q=0` means
 * "not acceptable". None (identity) when the header is absent, names neither, or refuses both.
 * `x-gzip` is `gzip` (RFC 9110 §8.4.1.3). Identity is always served rather than 406: a body in
 * no coding is one every client can read.
 */
export function negotiateEncoding(header: string | undefined): Coding | undefined {
  if (!header) return undefined;
  let best: Coding | undefined;
  let bestQ = 0;
  const named = new Map<string, number>();
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k.trim().toLowerCase() === 'q') q = qvalue(v);
    }
    if (name === '*') star = q;
    else named.set(name === 'x-gzip' ? 'gzip' : name, Math.max(q, named.get(name === 'x-gzip' ? 'gzip' : name) ?? 0));
  }
  for (const coding of CODINGS) {
    const q = named.get(coding) ?? star ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/** A `qvalue` (RFC 9110 §12.4.2): 0 to 1 with at most three decimals; anything else counts as 0. */
function qvalue(raw: string | undefined): number {
  const v = raw?.trim() ?? '';
  if (!/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(v)) return 0;
  return Number(v);
}
