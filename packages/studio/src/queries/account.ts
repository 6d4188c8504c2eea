import type { MfaEnabled, MfaMethod, ProfileChanges, TotpSetup } from '@vellum/client';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../api/client';

/** The query keys of the signed-in user's own account: their second factors, passkeys, links and grants. */
export const accountKeys = {
  mfaStatus: ['mfa-status'] as const,
  trustedDevices: ['trusted-devices'] as const,
  passkeyStatus: ['passkey-status'] as const,
  passkeys: ['passkeys'] as const,
  idpStatus: ['idp-status'] as const,
  grants: ['oauth-grants'] as const,
};

/** Whether passkeys are on; the sign-in page reads it once, the account page each time it opens. */
export function usePasskeyStatus(opts: { keep?: boolean } = {}) {
  return useQuery({
    queryKey: accountKeys.passkeyStatus,
    queryFn: () => client.passkeys.status(),
    ...(opts.keep && { staleTime: Infinity }),
  });
}

/** The identity provider: whether one is configured and this account linked to it. */
export function useIdentityProviderStatus(opts: { keep?: boolean } = {}) {
  return useQuery({
    queryKey: accountKeys.idpStatus,
    queryFn: () => client.identityProvider.status(),
    ...(opts.keep && { staleTime: Infinity }),
  });
}

export function useMfaStatus() {
  return useQuery({ queryKey: accountKeys.mfaStatus, queryFn: () => client.mfa.status() });
}

export function useTrustedDevices() {
  return useQuery({ queryKey: accountKeys.trustedDevices, queryFn: () => client.mfa.trustedDevices() });
}

export function usePasskeys(enabled: boolean) {
  return useQuery({ queryKey: accountKeys.passkeys, queryFn: () => client.passkeys.list(), enabled });
}

/** The applications holding an OAuth 2.0 grant of this user (asked only when OAuth 2.0 is on; a 501 is not retried). */
export function useOAuthGrants(enabled: boolean) {
  return useQuery({ queryKey: accountKeys.grants, queryFn: () => client.oauth.listGrants(), retry: false, enabled });
}

/** A write to the account, answered once the part of the page it changes has been asked again. */
function useAccountWrite<I, O>(write: (input: I) => Promise<O>, ...keys: ReadonlyArray<readonly string[]>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: async () => {
      for (const queryKey of keys) await queryClient.invalidateQueries({ queryKey });
    },
  });
}

export const useChangePassword = () =>
  useAccountWrite(({ current, next }: { current: string; next: string }) => client.auth.changePassword(current, next));
export const useUpdateProfile = () => useAccountWrite((changes: ProfileChanges) => client.auth.updateProfile(changes));
export const useRenamePasskey = () =>
  useAccountWrite(({ id, name }: { id: string; name: string }) => client.passkeys.rename(id, name), accountKeys.passkeys);
export const useDeletePasskey = () => useAccountWrite((id: string) => client.passkeys.delete(id), accountKeys.passkeys);
/** Revokes one trusted device, or every one without an id. */
export const useRevokeTrustedDevices = () =>
  useAccountWrite((id?: string) => client.mfa.revokeTrustedDevices(id), accountKeys.trustedDevices, accountKeys.mfaStatus);
export const useUnlinkIdentityProvider = () => useAccountWrite(() => client.identityProvider.unlink(), accountKeys.idpStatus);
export const useRevokeGrant = () => useAccountWrite((id: string) => client.oauth.revokeGrant(id), accountKeys.grants);

/** Starts linking the identity provider: the answer is the provider's address to go to. */
export const useStartIdentityLink = () => useMutation({ mutationFn: () => client.identityProvider.start('link') });

/** Registers a passkey: the browser's ceremony with the server's options, then its answer to the server. */
export function useAddPasskey() {
  return useAccountWrite(async () => {
    const options = await client.passkeys.registrationOptions();
    const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
    return client.passkeys.register(response);
  }, accountKeys.passkeys);
}

/** One step of the second factors' section; every step shares the section's busy state and error. */
export type MfaStep =
  | { step: 'setup'; method: MfaMethod }
  | { step: 'confirm'; method: MfaMethod; code: string }
  | { step: 'disable'; method: MfaMethod; password: string }
  | { step: 'backup-codes'; password: string };

export type MfaStepResult = { totp?: TotpSetup; enabled?: MfaEnabled; backupCodes?: string[] };

async function runMfaStep(s: MfaStep): Promise<MfaStepResult> {
  switch (s.step) {
    case 'setup':
      if (s.method === 'totp') return { totp: await client.mfa.setupTotp() };
      await client.mfa.setupEmail();
      return {};
    case 'confirm':
      return { enabled: s.method === 'totp' ? await client.mfa.confirmTotp(s.code) : await client.mfa.confirmEmail(s.code) };
    case 'disable':
      await client.mfa.disable(s.method, s.password);
      return {};
    case 'backup-codes':
      return { backupCodes: await client.mfa.regenerateBackupCodes(s.password) };
  }
}

/** Sets up, confirms or disables a second factor, or regenerates the backup codes; a change asks the status again. */
export function useMfaStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runMfaStep,
    onSuccess: async (_result, s) => {
      if (s.step !== 'setup') await queryClient.invalidateQueries({ queryKey: accountKeys.mfaStatus });
    },
  });
}
