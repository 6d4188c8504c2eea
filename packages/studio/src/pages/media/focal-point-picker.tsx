import type { Media } from '@vellum/client';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useSetFocalPoint, type FocalPoint } from '../../queries/media';
import { ErrorMessage } from '../../ui/error-message';
import { MediaThumbnail } from './media-thumbnail';

/** How far an arrow key moves the point, and how long the keys must pause before it is saved (one request, not one per key). */
const STEP = 0.05;
const KEY_PAUSE_MS = 300;
const ARROWS: Partial<Record<string, [number, number]>> = {
  ArrowLeft: [-STEP, 0],
  ArrowRight: [STEP, 0],
  ArrowUp: [0, -STEP],
  ArrowDown: [0, STEP],
};

/** 0–1, to 3 decimals: finer than a pixel of the preview, and no float noise (0.25 + 0.05) in the record. */
const coordinate = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 1000) / 1000;
const percent = (v: number) => `${Math.round(v * 100)} %`;
const describe = (p: FocalPoint) => `${percent(p.x)} from the left, ${percent(p.y)} from the top`;

/** Whether the panel can show the picture at its own shape: a raster image of known size (docs/media.md, "Focal point"). */
export function takesFocalPoint(media: Media): boolean {
  return !!(media.width && media.height && media.mimeType.startsWith('image/'));
}

/** The circle on the point: pointer events go through it to the picture. */
function Marker({ point }: { point: FocalPoint }) {
  return (
    <span
      className="media-focal-marker"
      data-testid="focal-point-marker"
      style={{ left: `${point.x * 100}%`, top: `${point.y * 100}%` }}
      aria-hidden="true"
    />
  );
}

/**
 * The picture framed to its own aspect ratio, so a position in the frame is a position in the
 * picture (the usual preview letterboxes it), the marker on it. `medium` keeps the shape;
 * `thumb` is cropped square, so without `medium` the original is shown.
 */
function frameProps(media: Media) {
  const ratio = media.width! / media.height!;
  return { className: 'media-focal', style: { aspectRatio: `${media.width} / ${media.height}`, width: `min(100%, ${12 * ratio}rem)` } };
}
function Picture({ media, point }: { media: Media; point: FocalPoint | null | undefined }) {
  return (
    <>
      <MediaThumbnail media={media} src={media.variants.medium ?? media.url} alt={media.alt ?? ''} />
      {point && <Marker point={point} />}
    </>
  );
}

/** The preview of a user who may not edit media: the picture, and the point if one is set. */
export function FocalPointView({ media }: { media: Media }) {
  const point = media.focalPoint;
  return (
    <div className="media-focal-area">
      <div {...frameProps(media)}>
        <Picture media={media} point={point} />
      </div>
      {point && <p className="muted">Focal point: {describe(point)}.</p>}
    </div>
  );
}

/**
 * The preview as a focal-point picker: a click sets the point where it lands and saves it at
 * once; the arrow keys move it by 5 % and save once they pause; "Clear focal point" goes back to
 * the centre (`null`). The point shows at once, the record's again once the save has settled.
 */
export function FocalPointPicker({ media }: { media: Media }) {
  const set = useSetFocalPoint(media._id);
  const { mutate } = set;
  const [moved, setMoved] = useState<FocalPoint | null>();
  const point = moved !== undefined ? moved : (media.focalPoint ?? null);
  const hintId = useId();
  const picker = useRef<HTMLButtonElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // A key move not saved yet: closing the panel within the pause still saves it.
  const unsaved = useRef<FocalPoint>(undefined);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      if (unsaved.current) mutate(unsaved.current);
    },
    [mutate],
  );

  const save = (p: FocalPoint | null) => {
    clearTimeout(timer.current);
    unsaved.current = undefined;
    setMoved(p);
    // A later move made while this one was on its way stays shown.
    mutate(p, { onSettled: () => setMoved((m) => (m === p ? undefined : m)) });
  };
  const onClick = (e: MouseEvent<HTMLButtonElement>) => {
    // Enter and Space click a button too, at no position (`detail` 0): the arrow keys move the point instead.
    if (e.detail === 0) return;
    const box = e.currentTarget.getBoundingClientRect();
    save({ x: coordinate((e.clientX - box.left) / box.width), y: coordinate((e.clientY - box.top) / box.height) });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const step = ARROWS[e.key];
    if (!step) return;
    // The arrows would scroll the panel otherwise.
    e.preventDefault();
    const from = point ?? { x: 0.5, y: 0.5 };
    const next = { x: coordinate(from.x + step[0]), y: coordinate(from.y + step[1]) };
    set.reset();
    setMoved(next);
    unsaved.current = next;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => save(next), KEY_PAUSE_MS);
  };

  return (
    <div className="media-focal-area">
      <button
        ref={picker}
        type="button"
        {...frameProps(media)}
        onClick={onClick}
        onKeyDown={onKeyDown}
        aria-label={
          point
            ? `Focal point: ${describe(point)}. Click or use the arrow keys to move it`
            : 'Focal point: not set, crops keep the centre. Click or use the arrow keys to set it'
        }
        aria-describedby={hintId}
      >
        <Picture media={media} point={point} />
      </button>
      <p id={hintId} className="muted">
        Click the image to set its focal point: crops keep it in view.
      </p>
      {point && (
        <div className="row">
          <button
            type="button"
            onClick={() => {
              save(null);
              // The button goes away with the point: focus stays in the picture rather than falling to the panel.
              picker.current?.focus();
            }}
          >
            Clear focal point
          </button>
        </div>
      )}
      <ErrorMessage error={set.error} />
      {set.isSuccess && moved === undefined && (
        <p role="status" className="muted">
          Focal point saved.
        </p>
      )}
    </div>
  );
}
