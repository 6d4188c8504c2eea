import { VellumApiError } from '@vellum/client';

/** The sentence shown for a failed call. A 403 says so plainly: it never signs the user out (docs/studio.md). */
export function errorText(error: unknown): string {
  if (error instanceof VellumApiError) {
    const said = error.error.message;
    if (error.status === 403) return `You do not have permission to do this. ${said}`;
    if (error.status === 429) return `Too many attempts; try again later. ${said}`;
    return said;
  }
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {errorText(error)}
    </p>
  );
}
