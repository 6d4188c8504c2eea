import type { Media } from '@vellum/client';
import { useDeferredValue, useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
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

/** Whether a file is of a type the field takes (its `accept`, else its type's), as the server checks when the document is saved. */
function takes(field: Field, file: File): boolean {
  const list = acceptOf(field)?.split(',') ?? [];
  return !list.length || list.some((a) => (a.endsWith('/*') ? file.type.startsWith(a.slice(0, -1)) : file.type === a));
}

/** The library shows what the type takes when that is one MIME prefix (`GET /media?type=` names one). */
function libraryType(field: Field): string | undefined {
  const accept = typeAccept(field);
  return accept.length === 1 ? accept[0] : undefined;
}

/**
 * An image or file field: the chosen media (thumbnail or name, or the caller's `preview`), an
 * upload in place (`POST /media`, then the field holds the new id) from the file input, a file
 * dropped on the field or pasted while focus is in it, or a choice from the library by search.
 * Those without `media:upload` get no file input and no drop target.
 */
export function MediaPicker(props: {
  field: Field;
  value?: string;
  onChange(v: unknown): void;
  disabled?: boolean;
  label: string;
  preview?: (media: Media) => ReactNode;
}) {
  const { field, value, onChange, disabled, label, preview } = props;
  const session = useSession();
  const remember = useRememberMedia();
  const uploadMedia = useUploadMedia();
  const [browsing, setBrowsing] = useState(false);
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const [progress, setProgress] = useState<number>();
  const [dragging, setDragging] = useState(false);
  const [refused, setRefused] = useState<string>();
  const mayUpload = !disabled && allows(session, 'media:upload');

  const media = useMedia(value);
  const library = useMediaList({ limit: 12, type: libraryType(field), search: deferred || undefined }, { enabled: browsing });

  function upload(file: File) {
    setRefused(undefined);
    uploadMedia.reset();
    if (!takes(field, file)) {
      setRefused(`${label} takes ${acceptOf(field)}; ${file.name} is ${file.type || 'of an unknown type'}.`);
      return;
    }
    setProgress(0);
    // The bytes the browser reports sent (src/api/upload-fetch.ts): fetch tells nothing of a Blob body's progress.
    const { signal } = new AbortController();
    onUploadProgress(signal, (sent, total) => setProgress(Math.round((sent / total) * 100)));
    uploadMedia.mutate({ file, signal }, { onSuccess: (m) => onChange(m._id), onSettled: () => setProgress(undefined) });
  }

  // A drag carrying files is taken (preventDefault lets it drop here); text and links are left to the browser.
  const carriesFiles = (e: DragEvent) => mayUpload && e.dataTransfer.types.includes('Files');
  const drop = {
    onDragEnter: (e: DragEvent) => carriesFiles(e) && (e.preventDefault(), setDragging(true)),
    onDragOver: (e: DragEvent) => carriesFiles(e) && e.preventDefault(),
    onDragLeave: (e: DragEvent) => {
      // Leaving for a child of the zone is no leaving.
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      setDragging(false);
      const file = e.dataTransfer.files[0];
      if (file) upload(file);
    },
  };
  // A pasted file (a screenshot, a copied image) while focus is in the field; pasted text goes
  // where it was going. Heard on the document: with focus on a button, browsers may send the
  // paste to the body rather than to the focused element (https://w3c.github.io/clipboard-apis/#fire-a-clipboard-event).
  const zone = useRef<HTMLDivElement>(null);
  const uploadRef = useRef(upload);
  uploadRef.current = upload;
  useEffect(() => {
    if (!mayUpload) return;
    const onPaste = (e: ClipboardEvent) => {
      const file = e.clipboardData?.files[0];
      const focused = document.activeElement;
      if (!file || !zone.current?.contains(focused)) return;
      // Pasting into the search or the alt text is typing, not replacing the file.
      if (focused?.matches('textarea, input:not([type="file"])')) return;
      e.preventDefault();
      uploadRef.current(file);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [mayUpload]);

  return (
    <div ref={zone} className={mayUpload ? 'stack media-drop' : 'stack'} data-dragging={dragging || undefined} {...(mayUpload ? drop : {})}>
      {mayUpload && <p className="muted media-drop-hint">Drop a file here, or paste one (Ctrl+V / ⌘V) while the field has focus.</p>}
      <div className="row">
        {value && media.data && (preview?.(media.data) ?? <MediaPreview media={media.data} />)}
        {value && media.isError && <span className="muted">Missing media {value}</span>}
        {!value && <span className="muted">None chosen</span>}
      </div>
      {!disabled && (
        <div className="row">
          {mayUpload && (
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
      {refused && (
        <p role="alert" className="error">
          {refused}
        </p>
      )}
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
      {thumb && <img className="media-field-thumb" src={thumb} alt={media.alt ?? media.title ?? media.originalFilename} />}
      <figcaption className="muted">
        <a href={media.url}>{media.originalFilename}</a>
      </figcaption>
    </figure>
  );
}
