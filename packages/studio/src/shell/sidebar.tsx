import { NavLink } from 'react-router';
import { can, useSession } from '../auth/session';
import { useStructure } from '../queries/config';
import { ErrorMessage } from '../ui/error-message';

/** The navigation: the content groups of `GET /config/structure`, media, and the administration pages the user may open. */
export function Sidebar() {
  const session = useSession();
  const structure = useStructure();
  const admin = session.user?.role === 'admin';
  const adminLinks = [
    { to: '/admin/users', label: 'Users', show: can(session, 'users:read') },
    { to: '/admin/tokens', label: 'API tokens', show: can(session, 'tokens:read') },
    { to: '/admin/webhooks', label: 'Webhooks', show: can(session, 'webhooks:read') },
    { to: '/admin/settings', label: 'Settings', show: can(session, 'settings:read') },
    { to: '/admin/audit', label: 'Audit log', show: admin },
  ].filter((l) => l.show);
  return (
    <nav className="sidebar" aria-label="Studio">
      <ErrorMessage error={structure.error} />
      {structure.data?.map((group) => (
        <section key={group.title} aria-labelledby={`group-${group.title}`}>
          <h2 id={`group-${group.title}`}>{group.title}</h2>
          <ul>
            {group.items.map((item) => (
              <li key={item.schema}>
                <NavLink to={`/documents/${item.schema}`}>{item.title}</NavLink>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {/* Every signed-in user: the server lists the schedules of the types they may read (docs/schedules.md). */}
      <section aria-labelledby="group-publishing">
        <h2 id="group-publishing">Publishing</h2>
        <ul>
          <li>
            <NavLink to="/schedules">Schedules</NavLink>
          </li>
        </ul>
      </section>
      {can(session, 'media:read') && (
        <section aria-labelledby="group-assets">
          <h2 id="group-assets">Assets</h2>
          <ul>
            <li>
              <NavLink to="/media">Media</NavLink>
            </li>
          </ul>
        </section>
      )}
      {adminLinks.length > 0 && (
        <section aria-labelledby="group-admin">
          <h2 id="group-admin">Administration</h2>
          <ul>
            {adminLinks.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to}>{l.label}</NavLink>
              </li>
            ))}
          </ul>
        </section>
      )}
    </nav>
  );
}
