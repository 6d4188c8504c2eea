import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUDIT_EVENTS } from '../../packages/server/src/config/audit-events.js';
import { FIXED_PERMISSIONS } from '../../packages/server/src/domain/access/permissions.js';

/**
 * The studio keeps its own copies of two server lists (the permission picker, the audit filter):
 * it may not import the server. Until they move into a package both read, this test keeps the
 * copies equal, so a permission or audit event added on the server cannot go missing in the studio.
 */
const quoted = (file: string, name: string): string[] => {
  const text = readFileSync(new URL(`../../packages/studio/src/pages/admin/${file}`, import.meta.url), 'utf8');
  const body = new RegExp(`export const ${name} = \\[([^\\]]*)\\]`).exec(text)?.[1];
  if (body === undefined) throw new Error(`${name} not found in ${file}`);
  return [...body.matchAll(/'([^']+)'/g)].map((m) => m[1]);
};

describe("the studio's copies of server lists", () => {
  it('the permission picker lists exactly the fixed permissions', () => {
    expect(quoted('permission-picker.tsx', 'FIXED_PERMISSIONS')).toEqual([...FIXED_PERMISSIONS]);
  });

  it('the audit filter lists exactly the audit events', () => {
    expect(quoted('audit-page.tsx', 'EVENTS')).toEqual([...AUDIT_EVENTS]);
  });
});
