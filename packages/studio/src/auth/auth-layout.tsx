import { useEffect, type ReactNode } from 'react';

/** The frame of the pages shown outside the shell: sign-in, reset, claim, OAuth approval. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Vellum Studio`;
  }, [title]);
  return (
    <main className="auth-page" id="main">
      <div className="auth-card">
        <p className="brand" aria-hidden="true">
          Vellum Studio
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
