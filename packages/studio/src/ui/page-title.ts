import { useEffect } from 'react';

/** The browser tab's title for a page of the studio. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Vellum Studio`;
  }, [title]);
}
