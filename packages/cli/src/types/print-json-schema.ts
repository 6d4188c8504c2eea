import {
  isSchema,
  MEDIA_KEYWORD,
  propertiesOf,
  REFERENCE_KEYWORD,
  requiredOf,
  schemasAt,
  typesOf,
  unionOf,
  type JsonSchema,
} from '../json-schema/json-schema.js';

/**
 * JSON Schema (2020-12, the subset OpenAPI 3.1 documents use) as TypeScript: objects with their
 * required and optional properties and `additionalProperties`, `const` and `enum` as literals,
 * arrays, `oneOf`/`anyOf` as unions (a union of objects one member a line, so a union
 * discriminated by a `const` property reads as one), `allOf` as an intersection, `type` lists and
 * OpenAPI 3.0's `nullable` as `| null`; titles and descriptions become doc comments. A `format`
 * only constrains the text, so it stays `string`. What this cannot say (`$ref`, `not`,
 * conditionals) is `unknown`: nothing a caller may send is refused by the types.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** An object this short, every property required and without a comment, stays on one line (`{ lat: number; lng: number }`). */
const INLINE_WIDTH = 60;

export const propertyName = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

/** The schema's title and description as a doc comment line, or none. */
export function docLines(s: unknown, indent: string): string[] {
  if (!isSchema(s)) return [];
  const text = [s.title, s.description].filter((t): t is string => typeof t === 'string' && t !== '').join('. ');
  return text ? [`${indent}/** ${comment(text)} */`] : [];
}

/** A line per property of an object schema (after its doc comment), `?` on those not required; `skip` leaves some out. */
export function propertyLines(s: JsonSchema, indent: string, skip: (name: string) => boolean = () => false): string[] {
  const required = requiredOf(s);
  return propertiesOf(s)
    .filter(([name]) => !skip(name))
    .flatMap(([name, p]) => {
      const type = printType(p, indent);
      // A union laid out one member a line starts on the line after the name.
      const gap = type.startsWith('\n') ? '' : ' ';
      return [...docLines(p, indent), `${indent}${propertyName(name)}${required.has(name) ? '' : '?'}:${gap}${type};`];
    });
}

/** The TypeScript type of what the schema allows, laid out for a line indented by `indent`. */
export function printType(s: unknown, indent: string): string {
  if (s === false) return 'never';
  if (!isSchema(s)) return 'unknown';
  const type = bare(s, indent);
  // OpenAPI 3.0's "or null" (3.1 lists "null" in `type` instead).
  return s.nullable === true && type !== 'unknown' ? `${type} | null` : type;
}

function bare(s: JsonSchema, indent: string): string {
  if ('const' in s) return literal(s.const);
  // A reference (`x-vellum-reference`: the types it may point at) is an id, marked with them.
  const targets = s[REFERENCE_KEYWORD];
  if (Array.isArray(targets) && targets.length > 0 && targets.every((t) => typeof t === 'string'))
    return `VellumRef<${targets.map(literal).join(' | ')}>`;
  if (s[MEDIA_KEYWORD] === true) return 'VellumMediaRef';
  if (Array.isArray(s.enum)) return s.enum.length > 0 ? s.enum.map(literal).join(' | ') : 'never';
  const members = unionOf(s);
  if (members) return union(members, indent);
  const all = schemasAt(s, 'allOf');
  if (all.length > 0) return all.map((m) => grouped(printType(m, indent), indent)).join(' & ');
  const types = typesOf(s);
  if (types.length > 0) return types.map((t) => (Object.hasOwn(BY_TYPE, t) ? BY_TYPE[t](s, indent) : 'unknown')).join(' | ');
  // No `type`: what the keywords present describe.
  if (s.properties !== undefined || s.additionalProperties !== undefined) return objectType(s, indent, false);
  if (s.items !== undefined) return arrayType(s, indent);
  return 'unknown';
}

/** By JSON Schema's `type` (its own vocabulary: JSON's kinds of value). */
const BY_TYPE: Record<string, (s: JsonSchema, indent: string) => string> = {
  string: () => 'string',
  number: () => 'number',
  integer: () => 'number',
  boolean: () => 'boolean',
  null: () => 'null',
  array: arrayType,
  object: (s, indent) => objectType(s, indent, false),
};

function arrayType(s: JsonSchema, indent: string): string {
  const item = printType(s.items ?? true, indent);
  if (/^[A-Za-z]+$/.test(item)) return `${item}[]`;
  return item.startsWith('\n') ? `Array<${item}\n${indent}>` : `Array<${item}>`;
}

/** An object type; `block` lays it out a property a line even when it would fit on one. */
function objectType(s: JsonSchema, indent: string, block: boolean): string {
  const props = propertiesOf(s);
  const extra = s.additionalProperties;
  if (props.length === 0) return extra === false ? 'Record<string, never>' : `Record<string, ${printType(extra ?? true, indent)}>`;
  const inner = `${indent}  `;
  const required = requiredOf(s);
  const open = extra !== undefined && extra !== false;
  const oneLine = `{ ${props.map(([name, p]) => `${propertyName(name)}: ${printType(p, inner)}`).join('; ')} }`;
  const plain = props.every(([name, p]) => required.has(name) && docLines(p, '').length === 0);
  if (!block && !open && plain && !oneLine.includes('\n') && oneLine.length <= INLINE_WIDTH) return oneLine;
  const lines = propertyLines(s, inner);
  // Every named property must fit an index signature's type: the other keys are `unknown`.
  if (open) lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

const isObjectSchema = (m: JsonSchema) => propertiesOf(m).length > 0 && typesOf(m).every((t) => t === 'object');

/** Scalars on one line (`"a" | "b"`); objects one member a line, each after its doc comment. */
function union(members: JsonSchema[], indent: string): string {
  if (members.length === 0) return 'never';
  const parts = members.map((m) => printType(m, indent));
  if (!members.some(isObjectSchema) && parts.every((p) => !p.includes('\n'))) return parts.join(' | ');
  const lead = `${indent}  `;
  const at = `${lead}  `;
  return members
    .map((m) => {
      const type = isObjectSchema(m) ? objectType(m, at, true) : grouped(printType(m, at), at);
      return `\n${[...docLines(m, lead), `${lead}| ${type}`].join('\n')}`;
    })
    .join('');
}

/** A type in parentheses where it is a union, for `&` and `[]` around it. */
function grouped(type: string, indent: string): string {
  if (type.startsWith('\n')) return `(${type}\n${indent})`;
  return type.includes(' | ') ? `(${type})` : type;
}

function literal(v: unknown): string {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? JSON.stringify(v) : 'unknown';
}

const comment = (text: string) => text.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ');
