import { useEffect } from 'react';
import { useStudioConfig } from '../queries/config';

/**
 * The browser tab's title for a page of the studio: the page, then the instance's site name
 * (`GET /config/studio`, which follows `PUT /config/settings`), so tabs of two instances differ.
 */
export function usePageTitle(title: string): void {
  const siteName = useStudioConfig().data?.siteName;
  useEffect(() => {
    document.title = siteName ? `${title} · ${siteName} Studio` : `${title} · Vellum Studio`;
  }, [title, siteName]);
}
