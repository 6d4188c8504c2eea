// The hostile requests of `npm run hostile` (bench/hostile.mjs): for one operation of the OpenAPI
// document, every variant of its path, query, headers and body that a careless or malicious
// client sends. Each variant is a plain description ({label, method, path, headers, body}); the
// runner sends it. Nothing here knows the server beyond its OpenAPI document.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/** Path parameter values no route should choke on (each still a valid URL path segment). */
export const HOSTILE_SEGMENTS = [
  'nonexistent',
  '0',
  '-1',
  '99999999999999999999999',
  '..',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%2F',
  '%00',
  '%ZZ',
  'a'.repeat(3000),
  '%F0%9F%92%A5',
  '%ED%A0%80', // a lone surrogate, UTF-8 encoded (invalid)
  "'%3B%20drop%20table%20users%3B--",
  '%20',
  '%22%3E%3Cscript%3E',
];

/** Query strings added to every operation, declared parameters or not. */
const GENERIC_QUERIES = [
  'limit=-1',
  'limit=1e309',
  'limit=abc',
  'limit=1&limit=2',
  'offset=99999999999999999999',
  'offset=-5',
  'page=0',
  'sort=-title,__proto__',
  'sort=%00',
  'filter[title]=x',
  'filter[title][gt]=1',
  'filter[__proto__][x]=1',
  'filter[_status]=nope',
  'filter[price][between]=1',
  'filter[a.b.c.d.e.f.g.h.i.j]=1',
  'expand=author.author.author.author.author.author',
  'expand=' + 'x,'.repeat(500),
  'fields=%00',
  'fields=' + 'a,'.repeat(1000),
  'search=' + '%22'.repeat(50),
  'search=*%25_%5C',
  'cursor=garbage',
  'cursor=' + Buffer.from('{"k":[1,2,3],"d":"x"}').toString('base64url'),
  'x=%ZZ',
  'q=' + 'a'.repeat(7000),
  '__proto__[polluted]=1',
  'constructor[prototype][x]=1',
  'type=%ED%A0%80',
];

/** Values for one declared query parameter. */
const PARAM_VALUES = [
  '',
  '-1',
  '0',
  '1e309',
  'NaN',
  'true',
  'null',
  '[]',
  '{}',
  '%00',
  '%ED%A0%80',
  'a'.repeat(2000),
  '2026-13-45T99:99:99Z',
];

/** Header sets sent with an otherwise plain request. */
const HEADER_VARIANTS = [
  ['if-match garbage', { 'if-match': 'garbage' }],
  ['if-match weak', { 'if-match': 'W/"1"' }],
  ['if-match star', { 'if-match': '*' }],
  ['if-match huge', { 'if-match': '"' + '9'.repeat(400) + '"' }],
  ['if-none-match', { 'if-none-match': '"x", W/"y", *' }],
  ['range garbage', { range: 'bytes=garbage' }],
  ['range huge', { range: 'bytes=99999999999999999999-' }],
  ['range many', { range: 'bytes=' + Array.from({ length: 200 }, (_, i) => `${i}-${i}`).join(',') }],
  ['accept odd', { accept: 'application/x-nothing' }],
  ['accept-encoding odd', { 'accept-encoding': 'zstd;q=2, *;q=-1' }],
  ['origin evil + cookie', { origin: 'https://evil.example', cookie: 'vellum_session=garbage; vellum_csrf=x' }],
  ['cookie garbage', { cookie: 'vellum_session=' + 'A'.repeat(4000) }],
  ['x-forwarded-for', { 'x-forwarded-for': '999.999.999.999, ::ffff:1.2.3.4, garbage' }],
  ['user-agent long', { 'user-agent': 'x'.repeat(8000) }],
];

/** Authorization headers that are not a principal's. */
export function forgedAuthorizations(realToken) {
  const [h, p] = (realToken ?? 'a.b.c').split('.');
  const claims = (() => {
    try {
      return JSON.parse(Buffer.from(p, 'base64url').toString());
    } catch {
      return {};
    }
  })();
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return [
    ['bearer garbage', 'Bearer garbage'],
    ['bearer empty', 'Bearer '],
    ['basic', 'Basic ' + Buffer.from('admin:admin').toString('base64')],
    ['bearer huge', 'Bearer ' + 'x'.repeat(6000)],
    ['alg none', `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, role: 'admin' })}.`],
    ['bad signature', `Bearer ${h}.${b64({ ...claims, role: 'admin' })}.${'A'.repeat(43)}`],
    ['future iat', `Bearer ${h}.${b64({ ...claims, iat: Math.floor(Date.now() / 1000) + 3e7 })}.x`],
    ['api token garbage', 'Bearer vl_' + 'z'.repeat(40)],
  ];
}

/** A body that satisfies `schema` as far as a guess can: required properties with plausible values. */
export function plausible(schema, name = '', depth = 0) {
  if (!schema || depth > 6) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt) return plausible(alt.find((s) => s.type !== 'null') ?? alt[0], name, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out = {};
      for (const key of schema.required ?? []) out[key] = plausible(schema.properties?.[key], key, depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => plausible(schema.items, name, depth + 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default: {
      if (/email/i.test(name)) return `hostile-${randomUUID().slice(0, 8)}@example.com`;
      if (/url|uri/i.test(name)) return 'https://example.com/hook';
      const min = schema.minLength ?? 1;
      return 'x'.repeat(Math.max(min, 1)).slice(0, schema.maxLength ?? 1000);
    }
  }
}

/** The same value with the wrong JSON type. */
function wrongType(value) {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return 'not a number';
  if (typeof value === 'boolean') return 'yes';
  if (Array.isArray(value)) return { not: 'an array' };
  if (value && typeof value === 'object') return ['not', 'an', 'object'];
  return {};
}

/** Raw (byte-level) JSON bodies: [label, content-type, body, extra headers]. */
function rawBodies(bodyLimit) {
  const json = 'application/json';
  const bomb = gzipSync(Buffer.from(`{"a":"${'0'.repeat(bodyLimit * 20)}"}`));
  return [
    ['malformed json', json, '{"a":'],
    ['json null', json, 'null'],
    ['json array', json, '[]'],
    ['json string', json, '"x"'],
    ['json number', json, '1e400'],
    ['empty json', json, ''],
    ['nul byte raw', json, '{"a":"\u0000"}'],
    ['invalid utf8', json, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
    ['bom', json, '\ufeff{}'],
    ['deep nesting', json, '['.repeat(100_000) + ']'.repeat(100_000)],
    ['deep objects', json, '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000)],
    ['proto keys', json, '{"__proto__":{"role":"admin"},"constructor":{"prototype":{"x":1}}}'],
    ['duplicate keys', json, '{"username":"a","username":{"x":1}}'],
    ['over body limit', json, `{"a":"${'a'.repeat(bodyLimit + 10)}"}`],
    ['text/plain', 'text/plain', '{}'],
    ['form', 'application/x-www-form-urlencoded', 'a=1&b=%00&__proto__[x]=1'],
    ['multipart no boundary', 'multipart/form-data', '--x\r\n'],
    ['xml', 'application/xml', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY y SYSTEM "file:///etc/passwd">]><x>&y;</x>'],
    ['charset latin1', 'application/json; charset=latin1', '{}'],
    ['content-type garbage', ';;;=', '{}'],
    ['gzip label, plain body', json, '{}', { 'content-encoding': 'gzip' }],
    ['gzip bomb', json, bomb, { 'content-encoding': 'gzip' }],
    ['unknown coding', json, '{}', { 'content-encoding': 'x-nothing' }],
    ['chained codings', json, '{}', { 'content-encoding': 'gzip, br, deflate' }],
  ];
}

/** Bodies derived from the operation's JSON schema: [label, value]. */
function schemaBodies(schema) {
  const base = plausible(schema);
  const out = [
    ['plausible', base],
    ['empty object', {}],
    ['unknown field', { ...(typeof base === 'object' && base ? base : {}), __unknown__: 1 }],
  ];
  if (base && typeof base === 'object' && !Array.isArray(base)) {
    const props = Object.keys(schema?.properties ?? {}).slice(0, 12);
    for (const key of props) {
      const valid = base[key] ?? plausible(schema.properties[key], key);
      out.push([`${key}: wrong type`, { ...base, [key]: wrongType(valid) }]);
      out.push([`${key}: null`, { ...base, [key]: null }]);
      if (typeof valid === 'string' || schema.properties[key]?.type === 'string') {
        out.push([`${key}: NUL`, { ...base, [key]: 'a\u0000b' }]);
        out.push([`${key}: lone surrogate`, { ...base, [key]: 'a\ud800b' }]);
        out.push([`${key}: huge`, { ...base, [key]: 'h'.repeat(200_000) }]);
        out.push([`${key}: markup`, { ...base, [key]: '<script>alert(1)</script>${{7*7}}\'"; --' }]);
      }
    }
  }
  return out;
}

/** The multipart bodies of an upload route: [label, content-type, body]. */
function multipartBodies(maxFileSize) {
  const boundary = '----hostile' + randomUUID().slice(0, 8);
  const part = (name, value, filename, type) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename !== undefined ? `; filename="${filename}"` : ''}\r\n` +
    (type ? `Content-Type: ${type}\r\n` : '') +
    `\r\n${value}\r\n`;
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ).toString('latin1');
  const end = `--${boundary}--\r\n`;
  const ct = `multipart/form-data; boundary=${boundary}`;
  const big = Buffer.alloc(maxFileSize + 200_000, 7).toString('latin1');
  return [
    ['mp ok png', ct, part('file', png, 'a.png', 'image/png') + end],
    ['mp no file', ct, part('alt', 'x') + end],
    ['mp two files', ct, part('file', png, 'a.png', 'image/png') + part('file', png, 'b.png', 'image/png') + end],
    ['mp too large', ct, part('file', big, 'big.bin', 'application/octet-stream') + end],
    ['mp alt NUL', ct, part('alt', 'a\u0000b') + part('file', png, 'a.png', 'image/png') + end],
    ['mp title surrogate', ct, part('title', '\ud800') + part('file', png, 'a.png', 'image/png') + end],
    ['mp filename traversal', ct, part('file', png, '../../../../etc/passwd', 'image/png') + end],
    ['mp filename NUL', ct, part('file', png, 'a\u0000.png', 'image/png') + end],
    ['mp filename long', ct, part('file', png, 'n'.repeat(5000) + '.png', 'image/png') + end],
    ['mp unnamed part', ct, `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n` + end],
    ['mp unknown field', ct, part('evil', 'x') + part('file', png, 'a.png', 'image/png') + end],
    ['mp truncated', ct, part('file', png, 'a.png', 'image/png').slice(0, 60)],
    ['mp bad id', ct, part('_id', '../x') + part('file', png, 'a.png', 'image/png') + end],
    ['mp html as png', ct, part('file', '<html><script>alert(1)</script></html>', 'x.png', 'image/png') + end],
    [
      'mp svg script',
      ct,
      part('file', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'x.svg', 'image/svg+xml') + end,
    ],
    ['mp too many parts', ct, Array.from({ length: 40 }, (_, i) => part(`f${i}`, 'x')).join('') + end],
  ].map(([label, type, body]) => [label, type, Buffer.from(body, 'latin1')]);
}

/**
 * Every hostile variant of one operation: `fill(name)` gives a realistic value for a path
 * parameter (an id that exists) or undefined. Each is {label, method, path, headers, body?}.
 */
export function variantsOf(op, { fill, bodyLimit, maxFileSize }) {
  const { method, template, parameters = [], requestBody } = op;
  const upper = method.toUpperCase();
  const pathParams = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const realPath = template.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(fill(name) ?? randomUUID()));
  const out = [];
  const add = (label, path, headers = {}, body) => out.push({ label, method: upper, path, headers, body });
  const takesBody = ['POST', 'PUT', 'PATCH'].includes(upper);
  const schema = requestBody?.content?.['application/json']?.schema;
  const jsonHeaders = { 'content-type': 'application/json' };
  const plain = takesBody ? JSON.stringify(plausible(schema)) : undefined;
  const plainHeaders = takesBody ? jsonHeaders : {};

  add('plain', realPath, plainHeaders, plain);
  // Path parameters, one at a time.
  for (const name of pathParams)
    for (const seg of HOSTILE_SEGMENTS) {
      const path = template.replace(/\{(\w+)\}/g, (_, n) => (n === name ? seg : encodeURIComponent(fill(n) ?? randomUUID())));
      add(`path ${name}=${seg.slice(0, 20)}`, path, plainHeaders, plain);
    }
  // Query strings: the generic ones and each declared parameter.
  for (const q of GENERIC_QUERIES) add(`query ${q.slice(0, 30)}`, `${realPath}?${q}`, plainHeaders, plain);
  for (const p of parameters.filter((p) => p.in === 'query'))
    for (const v of PARAM_VALUES)
      add(`query ${p.name}=${v.slice(0, 12)}`, `${realPath}?${encodeURIComponent(p.name)}=${v}`, plainHeaders, plain);
  // Headers.
  for (const [label, headers] of HEADER_VARIANTS) add(`header ${label}`, realPath, { ...plainHeaders, ...headers }, plain);
  // Bodies: on every write method, even those that declare none (a body they must refuse or ignore).
  if (takesBody || upper === 'DELETE') {
    for (const [label, type, body, extra] of rawBodies(bodyLimit)) add(`raw ${label}`, realPath, { 'content-type': type, ...extra }, body);
    if (schema) for (const [label, value] of schemaBodies(schema)) add(`body ${label}`, realPath, jsonHeaders, JSON.stringify(value));
    if (requestBody?.content?.['multipart/form-data'] || /\/media$/.test(template))
      for (const [label, type, body] of multipartBodies(maxFileSize)) add(label, realPath, { 'content-type': type }, body);
  }
  return out;
}
