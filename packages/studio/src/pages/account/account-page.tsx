import { useSession } from '../../auth/session';
import { usePageTitle } from '../../ui/page-title';
import { GrantsSection } from './grants-section';
import { IdentitySection } from './identity-section';
import { MfaSection } from './mfa-section';
import { PasskeysSection } from './passkeys-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import { TrustedDevicesSection } from './trusted-devices-section';

/**
 * The signed-in user's account (docs/studio.md, "Pages"): profile, password, second factors and
 * backup codes, passkeys, trusted devices, the linked identity provider, connected applications.
 */
export default function AccountPage() {
  usePageTitle('Account');
  const session = useSession();
  return (
    <>
      <h1>Account</h1>
      <ProfileSection session={session} />
      <PasswordSection />
      <MfaSection />
      <PasskeysSection />
      <TrustedDevicesSection />
      <IdentitySection />
      <GrantsSection />
    </>
  );
}
