import type { Me, Preferences } from '@vellum/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../api/client';
import { useSession } from '../auth/session';

const preferencesKey = ['preferences'] as const;

/**
 * The signed-in user's own preferences (docs/api.md, "Preferences"): read with the user when the
 * session starts (`GET /auth/me`), so the first list needs no request of its own.
 */
export function usePreferences(): Preferences {
  const session = useSession();
  const initial = (session.user as Me | undefined)?.preferences;
  const query = useQuery({
    queryKey: preferencesKey,
    queryFn: async () => (await client.auth.me()).preferences ?? {},
    staleTime: Infinity,
    ...(initial && { initialData: initial }),
  });
  return query.data ?? {};
}

/**
 * Replaces the preferences with `change(current)` (`PUT /auth/me/preferences`: the whole object
 * goes). The change shows at once; a refused one is taken back and its error kept.
 */
export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (next: Preferences) => client.auth.replacePreferences(next),
    onError: (_err, _next, before) => queryClient.setQueryData(preferencesKey, before ?? {}),
    onMutate: (next) => {
      const before = queryClient.getQueryData<Preferences>(preferencesKey) ?? {};
      queryClient.setQueryData(preferencesKey, next);
      return before;
    },
  });
  const update = (change: (current: Preferences) => Preferences) =>
    mutation.mutate(change(queryClient.getQueryData<Preferences>(preferencesKey) ?? {}));
  return { update, isPending: mutation.isPending, error: mutation.error };
}
