import type { Media } from '@vellum/client';
import { useCallback, useState } from 'react';
import { onUploadProgress } from '../../api/upload-fetch';
import { useUploadMedia } from '../../queries/media';

export interface Upload {
  key: string;
  name: string;
  sent: number;
  total: number;
  state: 'uploading' | 'done' | 'failed' | 'cancelled';
  error?: unknown;
  media?: Media;
}

let next = 0;
/** The uploads under way, by key: their Cancel button aborts the request. */
const controllers = new Map<string, AbortController>();

/**
 * Uploads files side by side through `useUploadMedia`, each with its own progress bar. The library's lists are
 * refetched as each file lands.
 */
export function useUploads() {
  const upload = useUploadMedia();
  const [uploads, setUploads] = useState<Upload[]>([]);

  const patch = (key: string, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  const start = useCallback(
    (files: File[]) => {
      const started = files.map((f) => ({ key: `u${++next}`, name: f.name, sent: 0, total: f.size, state: 'uploading' as const }));
      setUploads((list) => [...started, ...list]);
      files.forEach((file, i) => {
        const { key } = started[i]!;
        // The bytes sent, as the browser reports them (src/api/upload-fetch.ts): fetch, and so the
        // client's own onProgress, tells nothing of a Blob body's progress until it is all sent.
        const controller = new AbortController();
        const { signal } = controller;
        controllers.set(key, controller);
        onUploadProgress(signal, (sent, total) => patch(key, { sent, total }));
        upload
          .mutateAsync({ file, signal })
          .then((media) => patch(key, { state: 'done', media, sent: 1, total: 1 }))
          .catch((err: unknown) => patch(key, signal.aborted ? { state: 'cancelled' } : { state: 'failed', error: err }))
          .finally(() => controllers.delete(key));
      });
    },
    [upload.mutateAsync],
  );

  const cancel = useCallback((key: string) => controllers.get(key)?.abort(), []);
  const clearFinished = useCallback(() => setUploads((list) => list.filter((u) => u.state === 'uploading')), []);
  return { uploads, start, cancel, clearFinished };
}
