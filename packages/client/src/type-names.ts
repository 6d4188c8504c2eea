/**
 * The TypeScript and OpenAPI names of configured document types (docs/api.md, "OpenAPI"):
 * PascalCase, unique, never one of the fixed names of the generated file (`VellumSystemFields`,
 * `VellumRef`, `VellumMediaRef`, `VellumSchemas`, `VellumLocale`, `Localized`) or of this package (`VellumDocument`):
 * `post` → `Post`, `blog_post` → `BlogPost`, a name after a taken one gets `Document`, then
 * `Document3`. `vellum types` and the server's OpenAPI document both read it, so the generated
 * interfaces and the component schemas carry the same names. Pure: no Node module, no package.
 */
export function typeNames(names: readonly string[]): Map<string, string> {
  const taken = new Set([
    'VellumDocument',
    'VellumSystemFields',
    'VellumRef',
    'VellumMediaRef',
    'VellumSchemas',
    'VellumLocale',
    'Localized',
  ]);
  const out = new Map<string, string>();
  for (const name of names) {
    const base = name
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join('');
    let candidate = /^[A-Za-z]/.test(base) ? base : `T${base}`;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}${n === 2 ? 'Document' : `Document${n}`}`;
    taken.add(candidate);
    out.set(name, candidate);
  }
  return out;
}
