import { describe, expect, it } from 'vitest';
import { docLines, printType, propertyLines } from '../../packages/cli/src/types/print-json-schema.js';

/** The JSON Schema → TypeScript printer behind `vellum types` (docs/cli.md, "Types"). */
describe('printType', () => {
  it('prints JSON values by their type; a format is still a string; what it cannot say is unknown', () => {
    expect(printType({ type: 'string', format: 'date-time' }, '')).toBe('string');
    expect(printType({ type: 'integer' }, '')).toBe('number');
    expect(printType({ type: 'boolean' }, '')).toBe('boolean');
    expect(printType({ type: 'null' }, '')).toBe('null');
    expect(printType({}, '')).toBe('unknown');
    expect(printType(true, '')).toBe('unknown');
    expect(printType(false, '')).toBe('never');
    expect(printType({ $ref: '#/components/schemas/Post' }, '')).toBe('unknown');
    expect(printType({ type: 'constructor' }, '')).toBe('unknown');
  });

  it('prints const and enum as literals, type lists and nullable as unions', () => {
    expect(printType({ const: 'hero' }, '')).toBe('"hero"');
    expect(printType({ type: 'string', enum: ['a', 'b'] }, '')).toBe('"a" | "b"');
    expect(printType({ enum: [1, null, true] }, '')).toBe('1 | null | true');
    expect(printType({ type: ['string', 'null'] }, '')).toBe('string | null');
    expect(printType({ type: 'string', nullable: true }, '')).toBe('string | null');
  });

  it('prints arrays as T[] for a plain name, Array<T> otherwise', () => {
    expect(printType({ type: 'array', items: { type: 'string' } }, '')).toBe('string[]');
    expect(printType({ type: 'array' }, '')).toBe('unknown[]');
    expect(printType({ type: 'array', items: { enum: ['a'] } }, '')).toBe('Array<"a">');
    expect(printType({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } }, '')).toBe('Array<string | number>');
  });

  it('keeps a short object of required plain properties on one line, others a property a line with ? and comments', () => {
    const point = { type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } }, required: ['lat', 'lng'] };
    expect(printType(point, '  ')).toBe('{ lat: number; lng: number }');
    const seo = {
      type: 'object',
      properties: { title: { type: 'string', description: 'Shown by search engines' }, 'og:image': { type: 'string' } },
      required: ['title'],
    };
    expect(printType(seo, '  ')).toBe('{\n    /** Shown by search engines */\n    title: string;\n    "og:image"?: string;\n  }');
  });

  it('prints additionalProperties as a record, or as an unknown index signature beside named properties', () => {
    expect(printType({ type: 'object' }, '')).toBe('Record<string, unknown>');
    expect(printType({ type: 'object', additionalProperties: { type: 'boolean' } }, '')).toBe('Record<string, boolean>');
    expect(printType({ type: 'object', additionalProperties: false }, '')).toBe('Record<string, never>');
    const open = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: true };
    expect(printType(open, '')).toBe('{\n  a: string;\n  [key: string]: unknown;\n}');
  });

  it('prints a union of objects one member a line, each after its doc comment, and allOf as an intersection', () => {
    const blocks = {
      type: 'array',
      items: {
        oneOf: [
          { type: 'object', title: 'Hero', properties: { _type: { const: 'hero' } }, required: ['_type'] },
          { type: 'object', properties: { _type: { const: 'quote' }, text: { type: 'string' } }, required: ['_type'] },
        ],
        discriminator: { propertyName: '_type' },
      },
    };
    expect(printType(blocks, '  ')).toBe(
      'Array<\n    /** Hero */\n    | {\n        _type: "hero";\n      }\n    | {\n        _type: "quote";\n        text?: string;\n      }\n  >',
    );
    expect(printType({ oneOf: [] }, '')).toBe('never');
    expect(printType({ allOf: [{ type: 'object', additionalProperties: { type: 'string' } }, { enum: ['a', 'b'] }] }, '')).toBe(
      'Record<string, string> & ("a" | "b")',
    );
  });
});

describe('propertyLines and docLines', () => {
  it('marks the properties not required, leaves out those asked, and starts a laid-out union on the next line', () => {
    const schema = {
      type: 'object',
      properties: {
        _id: { type: 'string' },
        kind: { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'string' }] },
      },
      required: ['_id'],
    };
    expect(propertyLines(schema, '  ', (name) => name === '_id')).toEqual([
      '  kind?:\n    | {\n        a?: string;\n      }\n    | string;',
    ]);
  });

  it('joins title and description, on one line, with a closing */ in them escaped', () => {
    expect(docLines({ title: 'Body', description: 'Markdown\n  text */ here' }, '  ')).toEqual(['  /** Body. Markdown text *\\/ here */']);
    expect(docLines({ type: 'string' }, '')).toEqual([]);
  });
});
