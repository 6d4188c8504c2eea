import type { Media } from '@vellum/client';
import { useId, useState } from 'react';
import { can, useSession } from '../../../auth/session';
import { useUpdateMedia } from '../../../queries/media';
import { ErrorMessage } from '../../../ui/error-message';
import { FocalPointPicker, FocalPointView, takesFocalPoint } from '../../media/focal-point-picker';
import '../../media/media.css';
import './image-input.css';
import { MediaPicker } from '../media-picker';
import { fieldLabel } from '../schema';
import type { FieldProps } from './field-props';
import { FieldGroup } from './field-wrapper';

/**
 * `image` and `file`: a media record, picked from the library, uploaded from the file input, or
 * dropped or pasted on the field. A chosen image (a raster image of known size) is shown as the
 * media library's focal-point picker, with its alt text edited in place: both live on the media
 * record (`PATCH /media/:id`, docs/api.md "Media"), so every document using the image shares
 * them, and they need `media:edit` (without it they are shown, not edited).
 */
export function MediaInput(p: FieldProps) {
  const session = useSession();
  const label = p.label ?? fieldLabel(p.field);
  const editable = !p.disabled && can(session, 'media:edit');
  return (
    <FieldGroup p={p}>
      <MediaPicker
        field={p.field}
        value={typeof p.value === 'string' ? p.value : undefined}
        onChange={p.onChange}
        disabled={p.disabled}
        label={label}
        preview={(media) =>
          takesFocalPoint(media) ? <ImageDetails key={media._id} media={media} label={label} editable={editable} /> : null
        }
      />
    </FieldGroup>
  );
}

/** The chosen image: its focal point (a click on the picture sets it) and its alt text. */
function ImageDetails({ media, label, editable }: { media: Media; label: string; editable: boolean }) {
  return (
    <div className="stack media-field-image">
      {editable ? <FocalPointPicker media={media} /> : <FocalPointView media={media} />}
      <a href={media.url} className="muted">
        {media.originalFilename}
      </a>
      <AltText media={media} label={label} editable={editable} />
    </div>
  );
}

/** The alt text, saved to the media record when the box loses focus (or on Save); an emptied one is cleared (`null`). */
function AltText({ media, label, editable }: { media: Media; label: string; editable: boolean }) {
  const id = useId();
  const [alt, setAlt] = useState(media.alt ?? '');
  const save = useUpdateMedia(media._id);
  const changed = alt.trim() !== (media.alt ?? '');
  const commit = () => {
    if (changed && !save.isPending) save.mutate({ alt: alt.trim() || null });
  };
  if (!editable) {
    return <p className="muted">Alt text: {media.alt || 'none'}</p>;
  }
  return (
    <div className="stack">
      <label htmlFor={id}>Alt text of {label}</label>
      <textarea
        id={id}
        rows={2}
        maxLength={1000}
        value={alt}
        aria-describedby={`${id}-help`}
        onChange={(e) => {
          setAlt(e.target.value);
          save.reset();
        }}
        onBlur={commit}
      />
      <span id={`${id}-help`} className="field-help">
        Describes the image to those who cannot see it. Kept with the image in the media library, so every document using it shares it.
      </span>
      <div className="row">
        <button type="button" disabled={!changed || save.isPending} onClick={commit}>
          {save.isPending ? 'Saving…' : 'Save alt text'}
        </button>
        {save.isSuccess && !changed && (
          <span role="status" className="muted">
            Alt text saved.
          </span>
        )}
      </div>
      <ErrorMessage error={save.error} />
    </div>
  );
}
