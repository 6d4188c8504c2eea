import { AddPasskeyButton } from '../../auth/add-passkey-button';
import { useSession } from '../../auth/session';
import { usePageTitle } from '../../ui/page-title';

/** The signed-in user's account (a first version until the account pages land). */
export default function AccountPage() {
  usePageTitle('Account');
  const { user } = useSession();
  return (
    <>
      <h1>Account</h1>
      <dl className="facts">
        <dt>Username</dt>
        <dd>{user?.username}</dd>
        <dt>Email</dt>
        <dd>{user?.email}</dd>
        <dt>Role</dt>
        <dd>{user?.role}</dd>
      </dl>
      <section aria-labelledby="passkeys-title">
        <h2 id="passkeys-title">Passkeys</h2>
        <AddPasskeyButton />
      </section>
    </>
  );
}
