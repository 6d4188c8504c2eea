import type { NewUser, UserInvitation, UserListQuery, UserUpdate } from '@vellum/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../api/client';

/** The query keys of users; every change to one asks all the lists again. */
export const userKeys = {
  all: ['users'] as const,
  list: (query: UserListQuery) => [...userKeys.all, 'list', query] as const,
};

export function useUsers(query: UserListQuery, enabled: boolean) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: () => client.users.list(query),
    enabled,
    placeholderData: (previous) => previous,
  });
}

/** A write to users whose answer is awaited with the lists asked again, so a dialog closes on the new list. */
function useUserWrite<I, O>(write: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: write, onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }) });
}

export const useCreateUser = () => useUserWrite((user: NewUser) => client.users.create(user));
/** Without mail on the server the answer carries the invitation link (`inviteUrl`) to pass on. */
export const useInviteUser = () => useUserWrite((invitation: UserInvitation) => client.users.invite(invitation));
export const useUpdateUser = () => useUserWrite(({ id, update }: { id: string; update: UserUpdate }) => client.users.update(id, update));
/** Without mail on the server the answer carries the link (`resetUrl`) to pass on. */
export const useSendPasswordReset = () => useUserWrite((id: string) => client.users.sendPasswordReset(id));
export const useResetUserMfa = () => useUserWrite((id: string) => client.users.resetMfa(id));
