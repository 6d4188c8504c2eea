import type { ConfigReader } from './reader.js';
import { isLanguageTag } from './language-tag.js';

/** One configured locale (docs/localization.md, "Configuration"). */
export interface LocaleDef {
  code: string;
  name: string;
  fallback?: string;
}

/** `locales`, resolved: the first is the default; each locale's chain starts with itself. */
export interface LocalesConfig {
  default: string;
  list: readonly LocaleDef[];
  /** Per code, the locales a read tries in order: itself, then its fallbacks (`de-CH` → `de` → `en`). */
  chains: Readonly<Record<string, readonly string[]>>;
}

/**
 * `locales: [{code, name?, fallback?}]`. Codes are well-formed BCP 47 tags (RFC 5646), each
 * once (case-insensitively: `de-ch` and `de-CH` name one locale); a fallback names another
 * configured locale; following fallbacks never comes back to where it started; the default (the
 * first) has no fallback — it is the version every other translation starts from, and the one
 * `required` applies to (as in Contentful). Absent: content has one language.
 */
export function localesSection(r: ConfigReader, raw: unknown): LocalesConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.length === 0) {
    r.problem('locales', 'expected a non-empty array of {code, name?, fallback?}');
    return undefined;
  }
  const list: LocaleDef[] = [];
  const seen = new Map<string, string>();
  raw.forEach((value, i) => {
    const path = `locales[${i}]`;
    const o = r.object(path, value, ['code', 'name', 'fallback']);
    const code = r.string(`${path}.code`, o.code);
    if (code === undefined) {
      if (o.code === undefined) r.problem(`${path}.code`, 'expected a language tag such as "de-CH"');
      return;
    }
    if (!isLanguageTag(code)) {
      r.problem(`${path}.code`, `expected a BCP 47 language tag such as "en" or "de-CH" (got ${JSON.stringify(code)})`);
      return;
    }
    const same = seen.get(code.toLowerCase());
    if (same !== undefined) {
      r.problem(`${path}.code`, `duplicate locale "${code}" (already listed as "${same}")`);
      return;
    }
    seen.set(code.toLowerCase(), code);
    const fallback = r.string(`${path}.fallback`, o.fallback);
    list.push({ code, name: r.string(`${path}.name`, o.name) ?? code, ...(fallback !== undefined ? { fallback } : {}) });
  });
  const codes = new Set(list.map((l) => l.code));
  list.forEach((l) => {
    const path = `locales[${raw.findIndex((v) => (v as LocaleDef | undefined)?.code === l.code)}].fallback`;
    if (l.fallback === undefined) return;
    if (l === list[0]) r.problem(path, `the default locale "${l.code}" cannot fall back: every other locale is translated from it`);
    else if (!codes.has(l.fallback))
      r.problem(path, `"${l.fallback}" is not a configured locale (expected one of ${[...codes].join(', ')})`);
  });
  const chains: Record<string, string[]> = {};
  const byCode = new Map(list.map((l) => [l.code, l]));
  const cycles = new Set<string>();
  for (const l of list) {
    const chain = [l.code];
    for (let next = l.fallback; next !== undefined && byCode.has(next); next = byCode.get(next)?.fallback) {
      if (chain.includes(next)) {
        // Each locale of a cycle meets it from its own start: reported once, from the first listed.
        const key = [...chain].sort().join(' ');
        if (next === l.code && !cycles.has(key)) r.problem('locales', `fallbacks form a cycle: ${[...chain, next].join(' → ')}`);
        if (next === l.code) cycles.add(key);
        break;
      }
      chain.push(next);
    }
    chains[l.code] = chain;
  }
  if (list.length === 0) return undefined;
  return { default: list[0].code, list, chains };
}
