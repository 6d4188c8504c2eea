import type { ConfigReader } from './reader.js';
import type { FieldDef } from './types.js';

const GROUP_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;
const OPERATORS = ['eq', 'ne', 'in', 'exists'] as const;
const COMBINATORS = ['all', 'any', 'not'] as const;

/**
 * The studio's form layout of one schema (docs/api.md, "Schemas"), checked at start-up: `groups`
 * (its tabs), each top-level field's `group`, and `hidden` / `readOnly`, `true` or a rule on the
 * other top-level fields (`{field, eq|ne|in|exists}`, `{all|any: [...]}`, `{not}`). Nested fields
 * take none of them: a rule reads the document's top-level values, and tabs split the top level.
 * Returns the groups as configured, or undefined when there are none.
 */
export function checkFormLayout(r: ConfigReader, path: string, raw: unknown, fields: readonly FieldDef[]) {
  const groups = checkGroups(r, `${path}.groups`, raw);
  const names = new Set(fields.map((f) => f.name));
  fields.forEach((f, i) => {
    const fpath = `${path}.fields[${i}]`;
    if (f.group !== undefined) {
      if (typeof f.group !== 'string' || !groups?.some((g) => g.name === f.group)) {
        const known = groups?.length
          ? `one of ${[...new Set(groups.map((g) => g.name))].join(', ')}`
          : 'a name from the schema\u2019s groups, which has none';
        r.problem(`${fpath}.group`, `expected ${known} (got ${JSON.stringify(f.group)})`);
      }
    }
    for (const key of ['hidden', 'readOnly'] as const) {
      if (f[key] !== undefined && typeof f[key] !== 'boolean') checkRule(r, `${fpath}.${key}`, f[key], names, f.name);
    }
    nestedLayout(r, fpath, f);
  });
  return groups;
}

function checkGroups(r: ConfigReader, path: string, raw: unknown) {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || raw.length === 0) {
    r.problem(path, 'expected a non-empty array of groups ({name, title?})');
    return undefined;
  }
  const seen = new Set<string>();
  return raw.map((value, i) => {
    const gpath = `${path}[${i}]`;
    const g = r.object(gpath, value, ['name', 'title']);
    const name = r.string(`${gpath}.name`, g.name) ?? '';
    if (!GROUP_NAME.test(name)) r.problem(`${gpath}.name`, `expected a group name matching ${GROUP_NAME} (got ${JSON.stringify(g.name)})`);
    else if (seen.has(name)) r.problem(`${gpath}.name`, `duplicate group name "${name}"`);
    seen.add(name);
    const title = r.string(`${gpath}.title`, g.title);
    return { name, ...(title !== undefined ? { title } : {}) };
  });
}

/** One rule; `self` is the field it belongs to, which it may not read (a field hidden by its own value could never be shown again). */
function checkRule(r: ConfigReader, path: string, rule: unknown, fields: ReadonlySet<string>, self: string): void {
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) {
    r.problem(path, 'expected true, false or a rule: {field, eq|ne|in|exists}, {all: [...]}, {any: [...]} or {not: rule}');
    return;
  }
  const keys = Object.keys(rule);
  const o = rule as Record<string, unknown>;
  const combinator = COMBINATORS.find((c) => c in o);
  if (combinator) {
    if (keys.length !== 1) {
      r.problem(path, `expected ${combinator} alone in its rule (got ${keys.join(', ')})`);
      return;
    }
    if (combinator === 'not') return checkRule(r, `${path}.not`, o.not, fields, self);
    const list = o[combinator];
    if (!Array.isArray(list) || list.length === 0) r.problem(`${path}.${combinator}`, 'expected a non-empty array of rules');
    else list.forEach((item, i) => checkRule(r, `${path}.${combinator}[${i}]`, item, fields, self));
    return;
  }
  if (typeof o.field !== 'string') {
    r.problem(`${path}.field`, `expected the name of a field of the schema (got ${JSON.stringify(o.field)})`);
    return;
  }
  if (!fields.has(o.field)) r.problem(`${path}.field`, `unknown field "${o.field}" (a rule reads a top-level field of the same schema)`);
  else if (o.field === self) r.problem(`${path}.field`, `a field's rule cannot read the field itself`);
  const ops = keys.filter((k) => k !== 'field');
  const unknown = ops.filter((k) => !(OPERATORS as readonly string[]).includes(k));
  if (unknown.length) r.problem(`${path}.${unknown[0]}`, `unknown operator (expected one of ${OPERATORS.join(', ')})`);
  else if (ops.length !== 1) r.problem(path, `expected exactly one operator of ${OPERATORS.join(', ')} (got ${ops.length})`);
  else if (ops[0] === 'in' && !Array.isArray(o.in)) r.problem(`${path}.in`, 'expected an array of values');
  else if (ops[0] === 'exists' && typeof o.exists !== 'boolean') r.problem(`${path}.exists`, 'expected true or false');
}

/** Fields inside objects, arrays and blocks take no layout options: the studio applies them to the top level. */
function nestedLayout(r: ConfigReader, path: string, f: FieldDef): void {
  const inner: Array<[string, FieldDef]> = [];
  (Array.isArray(f.fields) ? f.fields : []).forEach((n, i) => inner.push([`${path}.fields[${i}]`, n]));
  if (Array.isArray(f.of)) f.of.forEach((b, i) => (b?.fields ?? []).forEach((n, j) => inner.push([`${path}.of[${i}].fields[${j}]`, n])));
  else if (f.of && typeof f.of === 'object') inner.push([`${path}.of`, f.of as FieldDef]);
  for (const [p, n] of inner) {
    if (!n || typeof n !== 'object') continue;
    for (const key of ['group', 'hidden', 'readOnly'] as const) {
      if (n[key] !== undefined) r.problem(`${p}.${key}`, 'only top-level fields take group, hidden and readOnly (docs/api.md, "Schemas")');
    }
    nestedLayout(r, p, n);
  }
}
