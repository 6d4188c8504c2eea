import { useQuery } from '@tanstack/react-query';
import { client } from '../../api/client';
import type { Session } from '../../auth/session';

/** The spec's fixed permission set (spec: Permissions), grouped by resource. */
export const FIXED_PERMISSIONS = [
  'content:read',
  'content:write',
  'content:delete',
  'content:publish',
  'content:*',
  'media:read',
  'media:upload',
  'media:edit',
  'media:delete',
  'users:read',
  'users:write',
  'users:delete',
  'users:invite',
  'settings:read',
  'settings:write',
  'studio:access',
  'tokens:read',
  'tokens:write',
  'tokens:delete',
  'webhooks:read',
  'webhooks:write',
  'webhooks:delete',
  'webhooks:test',
];
const CONTENT_ACTIONS = ['read', 'write', 'delete', 'publish'];
const SCHEMA_ACTIONS = [...CONTENT_ACTIONS, '*'];

/**
 * What the caller may grant (docs/api.md, "API tokens"): an admin anything; others what they
 * hold, what that covers (`post:read` under `content:read`), and a wildcard only when they hold
 * every content action it covers. The server checks again; this only disables the boxes.
 */
export function mayGrant(session: Session, permission: string): boolean {
  if (session.user?.role === 'admin') return true;
  const held = new Set(session.permissions);
  if (held.has(permission)) return true;
  const [resource, action] = permission.split(':');
  const holdsAction = (res: string, a: string) =>
    held.has(`${res}:${a}`) || held.has(`${res}:*`) || held.has(`content:${a}`) || held.has('content:*');
  if (resource === 'content') return action === '*' && CONTENT_ACTIONS.every((a) => held.has(`content:${a}`));
  if (FIXED_PERMISSIONS.includes(permission)) return false;
  if (action === '*') return CONTENT_ACTIONS.every((a) => holdsAction(resource, a));
  return holdsAction(resource, action);
}

function groups(schemas: string[]): Array<{ title: string; permissions: string[] }> {
  const byResource = new Map<string, string[]>();
  for (const p of FIXED_PERMISSIONS) {
    const r = p.split(':')[0];
    byResource.set(r, [...(byResource.get(r) ?? []), p]);
  }
  return [
    ...[...byResource].map(([title, permissions]) => ({ title, permissions })),
    ...schemas.map((s) => ({ title: `Schema “${s}”`, permissions: SCHEMA_ACTIONS.map((a) => `${s}:${a}`) })),
  ];
}

/**
 * Checkboxes for the fixed permissions and `<schema>:<action>` of every registered schema.
 * Boxes the caller may not grant are disabled, with the reason in their description.
 */
export function PermissionPicker({
  session,
  value,
  onChange,
  legend = 'Permissions',
}: {
  session: Session;
  value: string[];
  onChange: (next: string[]) => void;
  legend?: string;
}) {
  const schemas = useQuery({ queryKey: ['config', 'schemas'], queryFn: () => client.config.schemas() });
  const names = (schemas.data ?? []).map((s) => s.name);
  const toggle = (p: string, on: boolean) => onChange(on ? [...value, p] : value.filter((x) => x !== p));
  // Explicit permissions the form was given but the picker does not list (kept, shown as such).
  const others = value.filter((p) => !FIXED_PERMISSIONS.includes(p) && !names.some((n) => p.startsWith(`${n}:`)));
  return (
    <fieldset>
      <legend>{legend}</legend>
      <p className="muted" id="picker-help">
        You can grant only permissions you hold yourself; the others are disabled.
      </p>
      <div className="permission-picker">
        {groups(names).map((g) => (
          <fieldset key={g.title}>
            <legend>{g.title}</legend>
            {g.permissions.map((p) => {
              const allowed = mayGrant(session, p);
              return (
                <label key={p} className="inline">
                  <input
                    type="checkbox"
                    checked={value.includes(p)}
                    disabled={!allowed && !value.includes(p)}
                    aria-describedby={allowed ? undefined : 'picker-help'}
                    onChange={(e) => toggle(p, e.target.checked)}
                  />
                  <code>{p}</code>
                </label>
              );
            })}
          </fieldset>
        ))}
        {others.length > 0 && (
          <fieldset>
            <legend>Other</legend>
            {others.map((p) => (
              <label key={p} className="inline">
                <input type="checkbox" checked onChange={() => toggle(p, false)} />
                <code>{p}</code>
              </label>
            ))}
          </fieldset>
        )}
      </div>
    </fieldset>
  );
}
