import { useQuery } from '@tanstack/react-query';
import { client } from './client';

/**
 * `GET /config/studio`: the site name, branding and the server's own lists (permissions, audit
 * events), so the studio keeps no copy of them (docs/studio.md, "The shell"). The settings page
 * invalidates it after a save, so a new site name shows at once.
 */
export const studioConfigQuery = { queryKey: ['config', 'studio'], queryFn: () => client.config.studio(), staleTime: 5 * 60_000 };

export function useStudioConfig() {
  return useQuery(studioConfigQuery);
}
