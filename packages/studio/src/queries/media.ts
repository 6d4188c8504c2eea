import type { Media, MediaListQuery } from '@vellum/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../api/client';

/** A media record's focal point, when set. */
export type FocalPoint = NonNullable<Media['focalPoint']>;

/** The query keys of the media library (`/media`); a change to any file refreshes all of them. */
export const mediaKeys = {
  all: ['media'] as const,
  list: (query: MediaListQuery) => [...mediaKeys.all, 'list', query] as const,
  one: (id: string) => [...mediaKeys.all, 'one', id] as const,
};

/** A page of the library, the previous page shown while the next one loads. */
export function useMediaList(query: MediaListQuery, opts: { enabled?: boolean; keepPrevious?: boolean } = {}) {
  return useQuery({
    queryKey: mediaKeys.list(query),
    queryFn: () => client.listMedia(query),
    enabled: opts.enabled ?? true,
    ...(opts.keepPrevious ? { placeholderData: keepPreviousData } : {}),
  });
}

export function useMedia(id: string | undefined) {
  return useQuery({ queryKey: mediaKeys.one(id ?? ''), enabled: !!id, queryFn: () => client.getMedia(id!) });
}

/** Remembers a file already in hand (chosen from a list, just uploaded), so its field shows it without asking. */
export function useRememberMedia() {
  const queryClient = useQueryClient();
  return (media: Media) => queryClient.setQueryData(mediaKeys.one(media._id), media);
}

/**
 * Uploads one file (`POST /media`); several may run at once, each with its own signal (the
 * upload's progress is reported for that signal, src/api/upload-fetch.ts).
 */
export function useUploadMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, signal }: { file: File; signal: AbortSignal }) => client.uploadMedia(file, { signal }),
    onSuccess: (media) => {
      queryClient.setQueryData(mediaKeys.one(media._id), media);
      void queryClient.invalidateQueries({ queryKey: mediaKeys.all });
    },
  });
}

/** Sets a file's alt text and title (one of them, or both); an emptied one is `null` (docs/api.md, "Media"). */
export function useUpdateMedia(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: { alt?: string | null; title?: string | null }) => client.updateMedia(id, update),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mediaKeys.all }),
  });
}

/**
 * Sets where `fit=cover` transforms crop around (0–1 from the left and the top), or clears it
 * with `null` (docs/media.md, "Focal point"); the grid and the panel read the record again.
 */
export function useSetFocalPoint(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (focalPoint: FocalPoint | null) => client.updateMedia(id, { focalPoint }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mediaKeys.all }),
  });
}

/** Deletes a file; `force` deletes one documents still use (a 409 lists them otherwise). */
export function useDeleteMedia(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (force: boolean) => client.deleteMedia(id, force),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mediaKeys.all }),
  });
}
