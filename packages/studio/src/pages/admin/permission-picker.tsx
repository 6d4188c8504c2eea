import { useSchemas, useStudioConfig } from '../../queries/config';
import type { Session } from '../../auth/session';
import { ErrorMessage } from '../../ui/error-message';

/** The server's lists (`GET /config/studio`): the fixed permissions and the content actions. */
interface Lists {
  permissions: string[];
  schemaActions: string[];
}

/**
 * What the caller may grant (docs/api.md, "API tokens"): an admin anything; others what they
 * hold, what that covers (`post:read` under `content:read`), and a wildcard only when they hold
 * every content action it covers. The server checks again; this only disables the boxes.
 */
export function mayGrant(session: Session, permission: string, lists: Lists): boolean {
  if (session.user?.role === 'admin') return true;
  const held = new Set(session.permissions);
  if (held.has(permission)) return true;
  const [resource, action] = permission.split(':');
  const holdsAction = (res: string, a: string) =>
    held.has(`${res}:${a}`) || held.has(`${res}:*`) || held.has(`content:${a}`) || held.has('content:*');
  if (resource === 'content') return action === '*' && lists.schemaActions.every((a) => held.has(`content:${a}`));
  if (lists.permissions.includes(permission)) return false;
  if (action === '*') return lists.schemaActions.every((a) => holdsAction(resource, a));
  return holdsAction(resource, action);
}

/** The fixed permissions grouped by resource (the part before `:`), then each schema's. */
function groups(schemas: string[], lists: Lists): Array<{ title: string; permissions: string[] }> {
  const byResource = new Map<string, string[]>();
  for (const p of lists.permissions) {
    const r = p.split(':')[0];
    byResource.set(r, [...(byResource.get(r) ?? []), p]);
  }
  return [
    ...[...byResource].map(([title, permissions]) => ({ title, permissions })),
    ...schemas.map((s) => ({ title: `Schema “${s}”`, permissions: [...lists.schemaActions, '*'].map((a) => `${s}:${a}`) })),
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
  const schemas = useSchemas();
  const config = useStudioConfig();
  const names = (schemas.data ?? []).map((s) => s.name);
  const lists: Lists = { permissions: config.data?.permissions ?? [], schemaActions: config.data?.schemaActions ?? [] };
  const toggle = (p: string, on: boolean) => onChange(on ? [...value, p] : value.filter((x) => x !== p));
  // Without the server's list every permission held would show as "Other": wait for it.
  if (!config.data)
    return (
      <fieldset>
        <legend>{legend}</legend>
        <ErrorMessage error={config.error} />
        {!config.error && (
          <p className="loading" role="status">
            Loading permissions…
          </p>
        )}
      </fieldset>
    );
  // Explicit permissions the form was given but the picker does not list (kept, shown as such).
  const others = value.filter((p) => !lists.permissions.includes(p) && !names.some((n) => p.startsWith(`${n}:`)));
  return (
    <fieldset>
      <legend>{legend}</legend>
      <p className="muted" id="picker-help">
        You can grant only permissions you hold yourself; the others are disabled.
      </p>
      <div className="permission-picker">
        {groups(names, lists).map((g) => (
          <fieldset key={g.title}>
            <legend>{g.title}</legend>
            {g.permissions.map((p) => {
              const allowed = mayGrant(session, p, lists);
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
