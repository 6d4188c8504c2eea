import { usePageTitle } from '../../ui/page-title';

/** Users (placeholder until the administration pages land). */
export default function UsersPage() {
  usePageTitle('Users');
  return (
    <>
      <h1>Users</h1>
      <p className="muted">User management is coming.</p>
    </>
  );
}
