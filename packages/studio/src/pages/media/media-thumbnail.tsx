import type { Media } from '@vellum/client';
import { useState } from 'react';
import { thumbUrl, typeLabel } from './media-format';

/**
 * A grid cell's picture: the blurred `placeholder` (a data URL in the record, so it shows with
 * the list) until the `thumb` variant has loaded, then the thumbnail fades in over it.
 */
/** `alt` is empty in the grid, where the caption under the picture names it. */
export function MediaThumbnail({ media, src, alt = '' }: { media: Media; src?: string; alt?: string }) {
  const [loaded, setLoaded] = useState(false);
  const url = src ?? thumbUrl(media);
  if (!url) {
    return (
      <span className="media-thumb media-thumb-file" aria-hidden="true">
        {typeLabel(media)}
      </span>
    );
  }
  return (
    <span className="media-thumb" style={{ backgroundColor: media.dominantColor }} data-loaded={loaded ? 'true' : 'false'}>
      {media.placeholder && <img className="media-thumb-placeholder" src={media.placeholder} alt="" aria-hidden="true" />}
      <img className="media-thumb-image" src={url} alt={alt} loading="lazy" onLoad={() => setLoaded(true)} />
    </span>
  );
}
