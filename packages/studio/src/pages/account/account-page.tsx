import { useSession } from '../../auth/session';
import { usePageTitle } from '../../ui/page-title';
import { GrantsSection } from './grants-section';
import { IdentitySection } from './identity-section';
import { MfaSection } from './mfa-section';
import { PasskeysSection } from './passkeys-section';
import { PasswordSection } from './password-section';
import { TrustedDevicesSection } from './trusted-devices-section';

/**
 * The signed-in user's account (docs/studio.md, "Pages"): profile, password, second factors and
 * backup codes, passkeys, trusted devices, the linked identity provider, connected applications.
 */
export default function AccountPage() {
  usePageTitle('Account');
  const { user, permissions } = useSession();
  return (
    <>
      <h1>Account</h1>
      <section className="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <dl className="facts">
          <dt>Name</dt>
          <dd>{user?.name}</dd>
          <dt>Username</dt>
          <dd>{user?.username}</dd>
          <dt>Email</dt>
          <dd>{user?.email}</dd>
          <dt>Role</dt>
          <dd>{user?.role}</dd>
          <dt>Permissions</dt>
          <dd>{permissions.join(', ')}</dd>
        </dl>
        <p className="muted">An administrator changes your name, email and role.</p>
      </section>
      <PasswordSection />
      <MfaSection />
      <PasskeysSection />
      <TrustedDevicesSection />
      <IdentitySection />
      <GrantsSection />
    </>
  );
}
