import { describe, expect, it } from 'vitest';
import { configProblems } from '../helpers/config-problems.js';

/** The studio's form layout in a schema, checked at start-up (docs/api.md, "Schemas"): groups, and hidden / readOnly rules. */
describe('form layout options', () => {
  const post = (extra: Record<string, unknown>, fields: Array<Record<string, unknown>> = []) => ({
    schemas: [
      {
        name: 'post',
        fields: [{ name: 'title', type: 'string' }, { name: 'kind', type: 'select', options: ['text', 'video'] }, ...fields],
        ...extra,
      },
    ],
  });

  it('accepts groups, fields in them, and rules on other fields', () => {
    expect(
      configProblems(
        post({ groups: [{ name: 'main', title: 'Main' }, { name: 'seo' }] }, [
          { name: 'videoUrl', type: 'url', group: 'main', hidden: { not: { field: 'kind', eq: 'video' } } },
          { name: 'slugLocked', type: 'boolean', group: 'seo', readOnly: true, hidden: false },
          {
            name: 'note',
            type: 'text',
            readOnly: {
              any: [
                { field: 'kind', in: ['text', 'video'] },
                {
                  all: [
                    { field: 'title', exists: true },
                    { field: 'title', ne: 'x' },
                  ],
                },
              ],
            },
          },
        ]),
      ),
    ).toEqual([]);
  });

  it('refuses unknown and duplicate groups, with their paths', () => {
    expect(
      configProblems(
        post({ groups: [{ name: 'main' }, { name: 'main', extra: 1 }, { name: '1x' }] }, [
          { name: 'body', type: 'text', group: 'sidebar' },
        ]),
      ),
    ).toEqual([
      'schemas[0].groups[1].extra: unknown setting',
      'schemas[0].groups[1].name: duplicate group name "main"',
      'schemas[0].groups[2].name: expected a group name matching /^[a-zA-Z][a-zA-Z0-9_]*$/ (got "1x")',
      'schemas[0].fields[2].group: expected one of main, 1x (got "sidebar")',
    ]);
    expect(configProblems(post({ groups: [] }))).toEqual(['schemas[0].groups: expected a non-empty array of groups ({name, title?})']);
    expect(configProblems(post({}, [{ name: 'body', type: 'text', group: 'main' }]))).toEqual([
      'schemas[0].fields[2].group: expected a name from the schema’s groups, which has none (got "main")',
    ]);
  });

  it('refuses rules on unknown fields, unknown operators and bad shapes, with their paths', () => {
    const rule = (hidden: unknown) => configProblems(post({}, [{ name: 'body', type: 'text', hidden }]));
    expect(rule({ field: 'knd', eq: 'video' })).toEqual([
      'schemas[0].fields[2].hidden.field: unknown field "knd" (a rule reads a top-level field of the same schema)',
    ]);
    expect(rule({ field: 'kind', equals: 'video' })).toEqual([
      'schemas[0].fields[2].hidden.equals: unknown operator (expected one of eq, ne, in, exists)',
    ]);
    expect(rule({ field: 'kind', eq: 'a', ne: 'b' })).toEqual([
      'schemas[0].fields[2].hidden: expected exactly one operator of eq, ne, in, exists (got 2)',
    ]);
    expect(rule({ field: 'kind' })).toEqual(['schemas[0].fields[2].hidden: expected exactly one operator of eq, ne, in, exists (got 0)']);
    expect(rule({ field: 'kind', in: 'video' })).toEqual(['schemas[0].fields[2].hidden.in: expected an array of values']);
    expect(rule({ field: 'kind', exists: 'yes' })).toEqual(['schemas[0].fields[2].hidden.exists: expected true or false']);
    expect(rule({ field: 'body', exists: true })).toEqual([
      "schemas[0].fields[2].hidden.field: a field's rule cannot read the field itself",
    ]);
    expect(rule('yes')).toEqual([
      'schemas[0].fields[2].hidden: expected true, false or a rule: {field, eq|ne|in|exists}, {all: [...]}, {any: [...]} or {not: rule}',
    ]);
    expect(rule({ all: [] })).toEqual(['schemas[0].fields[2].hidden.all: expected a non-empty array of rules']);
    expect(rule({ any: [{ field: 'kind', eq: 'video' }, { not: { field: 'nope', exists: true } }] })).toEqual([
      'schemas[0].fields[2].hidden.any[1].not.field: unknown field "nope" (a rule reads a top-level field of the same schema)',
    ]);
    expect(rule({ not: { field: 'kind', eq: 1 }, field: 'kind' })).toEqual([
      'schemas[0].fields[2].hidden: expected not alone in its rule (got not, field)',
    ]);
  });

  it('takes layout options on top-level fields only', () => {
    expect(
      configProblems(
        post({}, [
          { name: 'seo', type: 'object', fields: [{ name: 'title', type: 'string', hidden: true, readOnly: { field: 'x', eq: 1 } }] },
        ]),
      ),
    ).toEqual([
      'schemas[0].fields[2].fields[0].hidden: only top-level fields take group, hidden and readOnly (docs/api.md, "Schemas")',
      'schemas[0].fields[2].fields[0].readOnly: only top-level fields take group, hidden and readOnly (docs/api.md, "Schemas")',
    ]);
  });
});
