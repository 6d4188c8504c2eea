import * as Dialog from '@radix-ui/react-dialog';
import { VellumApiError, type Media } from '@vellum/client';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { can, useSession } from '../../auth/session';
import { useDeleteMedia, useUpdateMedia } from '../../queries/media';
import { documentTitle } from '../../queries/document-title';
import { useDocument } from '../../queries/use-document-queries';
import { ErrorMessage } from '../../ui/error-message';
import { FocalPointPicker, FocalPointView, takesFocalPoint } from './focal-point-picker';
import { absoluteUrl, formatSize, mediaName } from './media-format';
import { MediaThumbnail } from './media-thumbnail';

/** One document field that uses the media item, read from the 409's `details` ("used by post 0192…"). */
interface Usage {
  field: string;
  type?: string;
  id?: string;
  text: string;
}

function usagesOf(error: unknown): Usage[] | undefined {
  if (!(error instanceof VellumApiError) || error.status !== 409) return undefined;
  return (error.details ?? []).map((d) => {
    const m = /^used by (\S+) (\S+)$/.exec(d.message);
    return { field: d.field, type: m?.[1], id: m?.[2], text: d.message };
  });
}

/** A document that uses the file, named by its title once read (its type and id until then, or when it may not be read). */
function UsageLink({ type, id }: { type: string; id: string }) {
  const doc = useDocument(type, id, { retry: false });
  return (
    <>
      <Link to={`/documents/${encodeURIComponent(type)}/${encodeURIComponent(id)}`}>
        {doc.data ? documentTitle(doc.data) : `${type} ${id}`}
      </Link>{' '}
      <span className="muted">({type})</span>
    </>
  );
}

/** The detail panel of one media item: preview (a focal-point picker for an image), facts, alt and title, copy URL, delete (with the 409 list and force). */
export function MediaDetailDialog({ media, onClose }: { media: Media; onClose: () => void }) {
  const session = useSession();
  const [alt, setAlt] = useState(media.alt ?? '');
  const [title, setTitle] = useState(media.title ?? '');
  const [copied, setCopied] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  // The grid's button that opened the panel: focus goes back to it on close (the panel has no Radix Trigger).
  const [opener] = useState(() => document.activeElement as HTMLElement | null);
  const mayEdit = can(session, 'media:edit');
  const mayDelete = can(session, 'media:delete');

  const save = useUpdateMedia(media._id);
  const remove = useDeleteMedia(media._id);
  const usages = usagesOf(remove.error);
  // A refused delete is shown from the mutation's error; the dialog closes only once the file is gone.
  const noop = () => undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // An emptied field clears the value (`null`, docs/api.md "Media").
    save.mutate({ alt: alt.trim() || null, title: title.trim() || null });
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(absoluteUrl(media));
      setCopied('URL copied to the clipboard.');
    } catch {
      setCopied('The clipboard is not available; copy the URL from the field above.');
    }
  };
  const preview = media.variants.medium ?? media.variants.thumb;

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="media-overlay" />
        <Dialog.Content
          className="media-panel"
          aria-describedby={undefined}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            opener?.focus();
          }}
        >
          <div className="media-panel-head">
            <Dialog.Title>{mediaName(media)}</Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" aria-label="Close">
                ×
              </button>
            </Dialog.Close>
          </div>
          {takesFocalPoint(media) ? (
            mayEdit ? (
              <FocalPointPicker media={media} />
            ) : (
              <FocalPointView media={media} />
            )
          ) : (
            (preview || media.mimeType.startsWith('image/')) && (
              <div className="media-preview">
                <MediaThumbnail media={media} src={preview} alt={media.alt ?? ''} />
              </div>
            )
          )}
          <dl className="facts">
            <dt>File</dt>
            <dd>{media.originalFilename}</dd>
            <dt>Type</dt>
            <dd>{media.mimeType}</dd>
            <dt>Size</dt>
            <dd>{formatSize(media.size)}</dd>
            {media.width && media.height && (
              <>
                <dt>Dimensions</dt>
                <dd>
                  {media.width} × {media.height}
                </dd>
              </>
            )}
            <dt>Uploaded</dt>
            <dd>{new Date(media.createdAt).toLocaleString()}</dd>
          </dl>
          <div className="stack">
            <label>
              URL
              <input type="text" readOnly value={absoluteUrl(media)} onFocus={(e) => e.currentTarget.select()} />
            </label>
            <div className="row">
              <button type="button" onClick={() => void copy()}>
                Copy URL
              </button>
              <a href={media.url} target="_blank" rel="noreferrer">
                Open the file
              </a>
            </div>
            {copied && (
              <p role="status" className="muted">
                {copied}
              </p>
            )}
          </div>
          <form className="stack" onSubmit={submit}>
            <label>
              Alt text
              <textarea
                value={alt}
                onChange={(e) => {
                  setAlt(e.target.value);
                  save.reset();
                }}
                rows={2}
                maxLength={1000}
                disabled={!mayEdit}
              />
            </label>
            <label>
              Title
              <input
                type="text"
                value={title}
                onChange={(e) => {
                  setTitle(e.target.value);
                  save.reset();
                }}
                maxLength={1000}
                disabled={!mayEdit}
              />
            </label>
            <ErrorMessage error={save.error} />
            {save.isSuccess && !save.isPending && (
              <p role="status" className="muted">
                Saved.
              </p>
            )}
            {mayEdit ? (
              <div className="row">
                <button type="submit" className="primary" disabled={save.isPending}>
                  {save.isPending ? 'Saving…' : 'Save'}
                </button>
              </div>
            ) : (
              <p className="muted">You may not edit media.</p>
            )}
          </form>
          {mayDelete && (
            <section className="media-delete stack" aria-labelledby="media-delete-title">
              <h2 id="media-delete-title">Delete</h2>
              {usages ? (
                <div className="stack">
                  <p role="alert">Documents use this file. Remove it from them first, or delete it anyway (they keep a broken link).</p>
                  <ul aria-label="Documents that use this file">
                    {usages.map((u) => (
                      <li key={`${u.field} ${u.text}`}>
                        {u.type && u.id ? <UsageLink type={u.type} id={u.id} /> : u.text} <span className="muted">field {u.field}</span>
                      </li>
                    ))}
                  </ul>
                  <div className="row">
                    <button
                      type="button"
                      className="danger"
                      onClick={() => void remove.mutateAsync(true).then(onClose, noop)}
                      disabled={remove.isPending}
                    >
                      Delete anyway
                    </button>
                    <button type="button" onClick={() => remove.reset()}>
                      Keep it
                    </button>
                  </div>
                </div>
              ) : confirming ? (
                <div className="row">
                  <span>Delete this file for good?</span>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => void remove.mutateAsync(false).then(onClose, noop)}
                    disabled={remove.isPending}
                  >
                    Yes, delete
                  </button>
                  <button type="button" onClick={() => setConfirming(false)}>
                    Cancel
                  </button>
                </div>
              ) : (
                <div className="row">
                  <button type="button" className="danger" onClick={() => setConfirming(true)}>
                    Delete…
                  </button>
                </div>
              )}
              {!usages && <ErrorMessage error={remove.error} />}
            </section>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
