import type { PresentUser } from '@vellum/client';
import { initials, presenceColour } from '../../live/presence';

/**
 * Who else has the document open (docs/studio.md, "Presence"): an avatar each, initials on a
 * colour of their own, the name as a tooltip and as text for screen readers. One person with two
 * tabs shows once.
 */
export function PresenceBar({ others }: { others: readonly PresentUser[] }) {
  const people = byUser(others);
  if (people.length === 0) return null;
  return (
    <div className="presence-bar">
      <span className="visually-hidden">Also here:</span>
      <ul aria-label="Also viewing this document">
        {people.map((p) => {
          const label = `${p.name}${p.editing ? ' (editing)' : ''}`;
          return (
            <li
              key={p.userId}
              className={p.editing ? 'avatar editing' : 'avatar'}
              title={label}
              style={{ background: presenceColour(p.userId) }}
            >
              <span aria-hidden="true">{initials(p.name)}</span>
              <span className="visually-hidden">{label}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** "Ada is editing this document too": said once this user is about to edit too; dismissible, never blocking. */
export function EditingTooNotice({ editors, onDismiss }: { editors: readonly PresentUser[]; onDismiss(): void }) {
  const names = byUser(editors).map((p) => p.name);
  if (names.length === 0) return null;
  const who = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return (
    <div role="status" className="editing-too">
      <p>
        {who} {names.length === 1 ? 'is' : 'are'} editing this document too. Your saves and theirs may cross; a conflict will ask before
        anything is overwritten.
      </p>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** The mark on a field someone else has focused: their name, in their colour. */
export function FieldPresence({ people }: { people: readonly PresentUser[] }) {
  const unique = byUser(people);
  if (unique.length === 0) return null;
  return (
    <p className="field-presence">
      {unique.map((p) => (
        <span key={p.userId} className="field-presence-name" style={{ borderColor: presenceColour(p.userId) }}>
          <span className="presence-dot" aria-hidden="true" style={{ background: presenceColour(p.userId) }} />
          {p.name} is on this field
        </span>
      ))}
    </p>
  );
}

/** One entry per user: the most telling of their sessions (editing first). */
function byUser(present: readonly PresentUser[]): PresentUser[] {
  const out = new Map<string, PresentUser>();
  for (const p of present) {
    const seen = out.get(p.userId);
    if (!seen || (p.editing && !seen.editing)) out.set(p.userId, p);
  }
  return [...out.values()];
}
