import { useQuery } from '@tanstack/react-query';
import { client } from '../api/client';

/** The query keys of `/config/*`: what the server says the studio is made of. */
export const configKeys = {
  all: ['config'] as const,
  schemas: () => [...configKeys.all, 'schemas'] as const,
  structure: () => [...configKeys.all, 'structure'] as const,
  studio: () => [...configKeys.all, 'studio'] as const,
};

/** `GET /config/schemas`, read once per session and kept. */
export function useSchemas() {
  return useQuery({ queryKey: configKeys.schemas(), queryFn: () => client.config.schemas(), staleTime: Infinity });
}

/** `GET /config/structure`: the navigation's groups of types (the sidebar, home and the global search share it). */
export function useStructure() {
  return useQuery({ queryKey: configKeys.structure(), queryFn: () => client.config.structure(), staleTime: 5 * 60_000 });
}

/**
 * `GET /config/studio`: the site name, branding and the server's own lists (permissions, audit
 * events), so the studio keeps no copy of them (docs/studio.md, "The shell"). The settings page
 * refreshes it after a save, so a new site name shows at once.
 */
export function useStudioConfig() {
  return useQuery({ queryKey: configKeys.studio(), queryFn: () => client.config.studio(), staleTime: 5 * 60_000 });
}
