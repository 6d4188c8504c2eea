import { VellumApiError } from '@vellum/client';

/**
 * An error handler for `useAction` in the second-factor steps: a spent, burned or expired MFA or
 * setup token cannot be retried, so the whole sign-in starts again (docs/authentication.md).
 */
export const restartWhenExpired = (onRestart: (err: unknown) => void) => (err: unknown) => {
  if (!(err instanceof VellumApiError && err.code === 'MFA_TOKEN_EXPIRED')) return false;
  onRestart(err);
  return true;
};
