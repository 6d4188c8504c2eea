import { NavLink } from 'react-router';
import { can, useSession } from '../auth/session';
import { useStructure } from '../queries/config';
import { ErrorMessage } from '../ui/error-message';

interface NavItem {
  to: string;
  label: string;
}

/** One titled group of links; `id` names its heading for the section's label. */
function NavGroup({ id, title, links }: { id: string; title: string; links: readonly NavItem[] }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul>
        {links.map((l) => (
          <li key={l.to}>
            <NavLink to={l.to}>{l.label}</NavLink>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The navigation: the content groups of `GET /config/structure`, media, and the administration pages the user may open. */
export function Sidebar({ id }: { id?: string }) {
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
    <nav id={id} className="sidebar" aria-label="Studio">
      <ErrorMessage error={structure.error} />
      {structure.data?.map((group) => (
        <NavGroup
          key={group.title}
          id={`group-${group.title}`}
          title={group.title}
          links={group.items.map((item) => ({ to: `/documents/${item.schema}`, label: item.title }))}
        />
      ))}
      {/* Every signed-in user: the server lists the schedules of the types they may read (docs/schedules.md). */}
      <NavGroup id="group-publishing" title="Publishing" links={[{ to: '/schedules', label: 'Schedules' }]} />
      {can(session, 'media:read') && <NavGroup id="group-assets" title="Assets" links={[{ to: '/media', label: 'Media' }]} />}
      {adminLinks.length > 0 && <NavGroup id="group-admin" title="Administration" links={adminLinks} />}
    </nav>
  );
}
