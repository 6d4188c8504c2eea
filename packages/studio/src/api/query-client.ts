import { VellumApiError } from '@vellum/client';
import { QueryClient } from '@tanstack/react-query';

/** A refusal (4xx) is an answer, not a glitch: only network failures and 5xx are tried again. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => count < 2 && !(error instanceof VellumApiError && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});
