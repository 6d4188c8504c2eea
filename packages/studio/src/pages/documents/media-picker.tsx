import type { Media } from '@vellum/client';
import { useDeferredValue, useState } from 'react';
import { onUploadProgress } from '../../api/upload-fetch';
import { useSession } from '../../auth/session';
import { useMedia, useMediaList, useRememberMedia, useUploadMedia } from '../../queries/media';
import { errorText } from '../../ui/error-message';
import { allows, type Field } from './schema';

/** What the field's type takes when the field names no `accept` (the server's `accept` hint: `image/` for images). */
const typeAccept = (field: Field): string[] => field.studio?.accept ?? [];

/** The MIME types an image or file field accepts (`accept`), as the file input's `accept`. */
function acceptOf(field: Field): string | undefined {
  const accept = Array.isArray(field.accept) ? (field.accept as string[]) : field.accept ? [String(field.accept)] : [];
  const list = accept.length ? accept : typeAccept(field);
  return list.length ? list.map((a) => (a.endsWith('/') ? `${a}*` : a)).join(',') : undefined;
}

/** The library shows what the type takes when that is one MIME prefix (`GET /media?type=` names one). */
function libraryType(field: Field): string | undefined {
  const accept = typeAccept(field);
  return accept.length === 1 ? accept[0] : undefined;
}

/**
 * An image or file field: the chosen media (thumbnail or name), an upload in place
 * (`POST /media`, then the field holds the new id), or a choice from the library by search.
 */
export function MediaPicker(props: { field: Field; value?: string; onChange(v: unknown): void; disabled?: boolean; label: string }) {
  const { field, value, onChange, disabled, label } = props;
  const session = useSession();
  const remember = useRememberMedia();
  const uploadMedia = useUploadMedia();
  const [browsing, setBrowsing] = useState(false);
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const [progress, setProgress] = useState<number>();

  const media = useMedia(value);
  const library = useMediaList({ limit: 12, type: libraryType(field), search: deferred || undefined }, { enabled: browsing });

  function upload(file: File) {
    setProgress(0);
    // The bytes the browser reports sent (src/api/upload-fetch.ts): fetch tells nothing of a Blob body's progress.
    const { signal } = new AbortController();
    onUploadProgress(signal, (sent, total) => setProgress(Math.round((sent / total) * 100)));
    uploadMedia.mutate({ file, signal }, { onSuccess: (m) => onChange(m._id), onSettled: () => setProgress(undefined) });
  }

  return (
    <div className="stack">
      <div className="row">
        {value && media.data && <MediaPreview media={media.data} />}
        {value && media.isError && <span className="muted">Missing media {value}</span>}
        {!value && <span className="muted">None chosen</span>}
      </div>
      {!disabled && (
        <div className="row">
          {allows(session, 'media:upload') && (
            <label className="file-button">
              Upload {label}
              <input
                type="file"
                accept={acceptOf(field)}
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (file) upload(file);
                }}
              />
            </label>
          )}
          <button type="button" aria-expanded={browsing} onClick={() => setBrowsing(!browsing)}>
            Choose from library
          </button>
          {value && (
            <button type="button" onClick={() => onChange(undefined)} aria-label={`Clear ${label}`}>
              Clear
            </button>
          )}
        </div>
      )}
      {progress !== undefined && <progress max={100} value={progress} aria-label={`Uploading ${label}`} />}
      {uploadMedia.error && (
        <p role="alert" className="error">
          {errorText(uploadMedia.error)}
        </p>
      )}
      {browsing && !disabled && (
        <div className="stack">
          <label>
            Search media
            <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
          {library.data && library.data.data.length === 0 && <span className="muted">Nothing found.</span>}
          <ul className="picker-results" aria-label="Media results">
            {library.data?.data.map((m) => (
              <li key={m._id}>
                <button
                  type="button"
                  onClick={() => {
                    remember(m);
                    onChange(m._id);
                    setBrowsing(false);
                  }}
                >
                  {m.title || m.originalFilename}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function MediaPreview({ media }: { media: Media }) {
  const thumb = media.variants.thumb ?? (media.mimeType.startsWith('image/') ? media.url : undefined);
  return (
    <figure className="stack media-figure">
      {thumb && <img className="media-thumb" src={thumb} alt={media.alt ?? media.title ?? media.originalFilename} />}
      <figcaption className="muted">
        <a href={media.url}>{media.originalFilename}</a>
      </figcaption>
    </figure>
  );
}
