import { describe, expect, it } from 'vitest';
import { configProblems } from '../helpers/config-problems.js';

/** The options of a `blocks` field, checked at start-up (docs/api.md, "Blocks"). */
describe('blocks field options', () => {
  const page = (sections: Record<string, unknown>) => ({
    schemas: [{ name: 'page', fields: [{ name: 'sections', type: 'blocks', ...sections }] }],
  });

  it('accepts block types with their fields', () => {
    expect(
      configProblems(page({ of: [{ name: 'hero', title: 'Hero', fields: [{ name: 'heading', type: 'string' }] }], maxItems: 3 })),
    ).toEqual([]);
  });

  it('needs a non-empty list of named block types whose fields are checked like any others', () => {
    expect(configProblems(page({}))).toEqual([
      'schemas[0].fields[0].of: expected a non-empty array of block types ({name, title?, fields})',
    ]);
    expect(
      configProblems(
        page({
          of: [
            { name: 'hero', fields: [{ name: 'heading', type: 'strin' }] },
            { name: 'hero', fields: [] },
            { name: '_x', fields: [], extra: 1 },
            { name: 'quote', fields: [{ name: 'author', type: 'reference', to: 'nobody' }] },
          ],
        }),
      ),
    ).toEqual([
      expect.stringMatching(/^schemas\[0\]\.fields\[0\]\.of\[0\]\.fields\[0\]\.type: unknown field type "strin"/),
      'schemas[0].fields[0].of[1].name: duplicate block name "hero"',
      expect.stringMatching(/^schemas\[0\]\.fields\[0\]\.of\[2\]\.extra: /),
      'schemas[0].fields[0].of[2].name: expected a block name matching /^[a-zA-Z][a-zA-Z0-9_]*$/ (got "_x")',
      'schemas[0].fields[0].of[3].fields[0].to: references a missing schema "nobody"',
    ]);
  });

  it('cannot be unique or indexed', () => {
    expect(configProblems(page({ of: [{ name: 'hero', fields: [] }], indexed: true }))).toEqual([
      'schemas[0].fields[0].indexed: only top-level scalar fields can be unique or indexed',
    ]);
  });
});
