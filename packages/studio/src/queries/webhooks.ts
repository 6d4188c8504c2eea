import type { ListResult, Webhook, WebhookDelivery, WebhookDeliveryStatus, WebhookInput } from '@vellum/client';
import { useMutation, useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { client } from '../api/client';

/**
 * The query keys of webhooks. A hook's deliveries log is a prefix of its own: it refreshes by
 * itself and when a delivery is made, not each time the hook's settings change.
 */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (page: { limit: number; offset: number }) => [...webhookKeys.all, 'list', page] as const,
  one: (id: string) => [...webhookKeys.all, 'one', id] as const,
  deliveries: (id: string) => ['webhook-deliveries', id] as const,
  deliveriesPage: (id: string, query: { status?: WebhookDeliveryStatus; limit: number; offset: number }) =>
    [...webhookKeys.deliveries(id), query] as const,
};

export function useWebhooks(page: { limit: number; offset: number }, enabled: boolean) {
  return useQuery({
    queryKey: webhookKeys.list(page),
    queryFn: () => client.webhooks.list(page),
    enabled,
    placeholderData: (previous) => previous,
  });
}

export function useWebhook(id: string, enabled: boolean) {
  return useQuery({ queryKey: webhookKeys.one(id), queryFn: () => client.webhooks.get(id), enabled });
}

/** A hook's deliveries log, asked again at the pace `refetchInterval` says for what it holds. */
export function useWebhookDeliveries(
  id: string,
  query: { status?: WebhookDeliveryStatus; limit: number; offset: number },
  refetchInterval: (query: Query<ListResult<WebhookDelivery>>) => number,
) {
  return useQuery({
    queryKey: webhookKeys.deliveriesPage(id, query),
    queryFn: () => client.webhooks.deliveries(id, query),
    placeholderData: (previous) => previous,
    // Intervals pause while the tab is hidden (TanStack Query's default); coming back asks at once.
    refetchInterval,
    refetchOnWindowFocus: true,
  });
}

/** Asks the deliveries log again now, joining a request already under way rather than cancelling it. */
export function useRefreshDeliveries(id: string) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }, { cancelRefetch: false });
}

/** Creates a webhook; the answer holds its signing secret, shown once. */
export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookInput) => client.webhooks.create(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

/** The hook as the server answered a change to it, shown at once, and every list asked again. */
function useShowWebhook(id: string) {
  const queryClient = useQueryClient();
  return async (next: Webhook) => {
    queryClient.setQueryData(webhookKeys.one(id), next);
    await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  };
}

/** Replaces a webhook's settings (`PUT`, the whole input). */
export function useUpdateWebhook(id: string) {
  const show = useShowWebhook(id);
  return useMutation({ mutationFn: (input: WebhookInput) => client.webhooks.update(id, input), onSuccess: show });
}

/** A new signing secret; the answer holds it, shown once. */
export function useRotateWebhookSecret(id: string) {
  const show = useShowWebhook(id);
  return useMutation({ mutationFn: () => client.webhooks.rotateSecret(id), onSuccess: (rotated) => show(rotated.webhook) });
}

export function useDeleteWebhook(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => client.webhooks.delete(id),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: webhookKeys.one(id) });
      await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
  });
}

/** Sends a `webhook.test` event now; the answer is the recorded delivery, which heads the log. */
export function useTestWebhook(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => client.webhooks.test(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}

/** Puts a failed or dead delivery back in the queue, due now. */
export function useRetryDelivery(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => client.webhooks.retryDelivery(id, deliveryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}
