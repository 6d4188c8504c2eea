import { VellumApiError } from '@vellum/client';

/** A spent, burned or expired MFA or setup token: it cannot be retried (docs/authentication.md). */
export const isExpiredStep = (err: unknown) => err instanceof VellumApiError && err.code === 'MFA_TOKEN_EXPIRED';

/**
 * The `onError` of the second-factor steps' mutations: an expired token starts the whole
 * sign-in again, which shows the error itself (the step's own message leaves it out).
 */
export const restartWhenExpired = (onRestart: (err: unknown) => void) => (err: unknown) => {
  if (isExpiredStep(err)) onRestart(err);
};
