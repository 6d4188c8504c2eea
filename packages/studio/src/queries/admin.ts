import type { AuditQuery, Settings } from '@vellum/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../api/client';
import { configKeys } from './config';

/** The query keys of the administration pages other than users and webhooks. */
export const adminKeys = {
  settings: ['settings'] as const,
  tokens: ['tokens'] as const,
  audit: (query: AuditQuery) => ['audit', query] as const,
};

/** `GET /config/settings`: the instance settings. */
export function useSettings(enabled: boolean) {
  return useQuery({ queryKey: adminKeys.settings, queryFn: () => client.config.settings(), enabled });
}

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (next: Settings) => client.config.updateSettings(next),
    onSuccess: (saved) => {
      queryClient.setQueryData(adminKeys.settings, saved);
      // The header and the tab titles show the site name from `GET /config/studio`.
      void queryClient.invalidateQueries({ queryKey: configKeys.studio() });
    },
  });
}

export function useApiTokens(enabled: boolean) {
  return useQuery({ queryKey: adminKeys.tokens, queryFn: () => client.apiTokens.list({ limit: 100 }), enabled });
}

/** Creates an API token; the answer holds the token itself, shown once. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; permissions: string[]; expiresAt?: string }) => client.apiTokens.create(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.tokens }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.apiTokens.delete(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.tokens }),
  });
}

/** A page of the audit log, the previous page shown while the next one loads. */
export function useAuditLog(query: AuditQuery, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.audit(query),
    queryFn: () => client.audit(query),
    enabled,
    placeholderData: (previous) => previous,
  });
}
