import type { AuthorizationParams, SignedInBody } from '@vellum/client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { client } from '../api/client';
import { establishSession } from '../auth/session';

/** The query keys of the pages before and around signing in; their answers do not change while the page is open. */
export const authKeys = {
  claimable: ['claimable'] as const,
  resetStatus: ['reset-status'] as const,
  resetToken: (token: string) => ['reset-token', token] as const,
  deviceRequest: (code: string | undefined) => ['device-request', code] as const,
  authorizationRequest: (request: AuthorizationParams) => ['authorize', request] as const,
};

/** Whether the instance still has no user, so its first administrator may be made (`GET /auth/claim`). */
export function useClaimable() {
  return useQuery({
    queryKey: authKeys.claimable,
    queryFn: async () => (await client.request<{ data: { claimable: boolean } }>('GET', '/auth/claim')).data.claimable,
  });
}

/** Makes the first administrator (`POST /auth/claim`) and signs them in. */
export function useClaim() {
  return useMutation({
    mutationFn: async (body: Record<string, string>) => {
      const { data } = await client.request<{ data: SignedInBody }>('POST', '/auth/claim', body);
      await client.setTokens({ kind: 'session', accessToken: data.token, refreshToken: data.refreshToken, expiresAt: data.expiresAt });
      await establishSession();
    },
  });
}

/** Whether the server can mail a reset link (`GET /auth/reset-status`). */
export function useResetStatus() {
  return useQuery({ queryKey: authKeys.resetStatus, queryFn: () => client.auth.passwordResetStatus(), staleTime: Infinity });
}

export function useResetToken(token: string) {
  return useQuery({ queryKey: authKeys.resetToken(token), queryFn: () => client.auth.verifyResetToken(token), staleTime: Infinity });
}

export const useRequestPasswordReset = () => useMutation({ mutationFn: (email: string) => client.auth.requestPasswordReset(email) });

export const useResetPassword = (token: string) =>
  useMutation({ mutationFn: (password: string) => client.auth.resetPassword(token, password) });

/** The client and scopes behind a device's code (RFC 8628). */
export function useDeviceRequest(code: string | undefined) {
  return useQuery({
    queryKey: authKeys.deviceRequest(code),
    queryFn: () => client.oauth.deviceRequest(code!),
    enabled: !!code,
    staleTime: Infinity,
  });
}

export const useDecideDevice = () =>
  useMutation({
    mutationFn: ({ userCode, action, scopes }: { userCode: string; action: 'approve' | 'deny'; scopes: string[] }) =>
      client.oauth.approveDevice(userCode, action, scopes),
  });

/** The client and scopes of an authorization-code request (RFC 6749 §4.1.1). */
export function useAuthorizationRequest(request: AuthorizationParams) {
  return useQuery({
    queryKey: authKeys.authorizationRequest(request),
    queryFn: () => client.authorizationCode.authorizationRequest(request),
    staleTime: Infinity,
  });
}

/** Approves or denies an authorization-code request; the answer is the address to go on to. */
export const useDecideAuthorization = (request: AuthorizationParams) =>
  useMutation({
    mutationFn: ({ action, scopes }: { action: 'approve' | 'deny'; scopes: string[] }) =>
      client.authorizationCode.decide(request, action, scopes),
  });
