import type { Media } from '@vellum/client';
import { useEffect, useState } from 'react';
import { can, useSession } from '../../auth/session';
import { useMediaList } from '../../queries/media';
import { ErrorMessage } from '../../ui/error-message';
import { OffsetPager } from '../../ui/offset-pager';
import { usePageTitle } from '../../ui/page-title';
import { MediaDetailDialog } from './media-detail-dialog';
import { TYPE_FILTERS, formatSize, mediaName } from './media-format';
import { MediaThumbnail } from './media-thumbnail';
import { UploadZone } from './upload-zone';
import './media.css';

const PAGE_SIZE = 24;

/** The search box's text, passed on once typing pauses (one request per pause, not per key). */
function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * The media library (docs/studio.md, "Pages"): upload by drag and drop or the file input, a
 * grid of thumbnails filtered by type and searched by name, title or alt text (`GET /media`),
 * paged, and a detail panel per item.
 */
export default function MediaPage() {
  usePageTitle('Media');
  const session = useSession();
  const [type, setType] = useState('');
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), 250);
  const [offset, setOffset] = useState(0);
  const [openId, setOpenId] = useState<string>();

  // A new filter starts again at the first page.
  useEffect(() => setOffset(0), [type, search]);

  const list = useMediaList({ type: type || undefined, search: search || undefined, limit: PAGE_SIZE, offset }, { keepPrevious: true });
  const items = list.data?.data ?? [];
  const total = list.data?.meta.total ?? 0;
  const open: Media | undefined = items.find((m) => m._id === openId);

  return (
    <>
      <h1>Media</h1>
      {can(session, 'media:upload') && <UploadZone />}
      <div className="media-filters" role="search" aria-label="Filter media">
        <label>
          Type
          <select value={type} onChange={(e) => setType(e.target.value)}>
            {TYPE_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Search media
          <input type="search" value={searchText} onChange={(e) => setSearchText(e.target.value)} placeholder="Name, title or alt text" />
        </label>
      </div>
      <ErrorMessage error={list.error} />
      {list.data && items.length === 0 && <p className="muted">{search || type ? 'No media match.' : 'No media yet.'}</p>}
      {items.length > 0 && (
        <ul className="media-grid" aria-label="Media items">
          {items.map((m) => (
            <li key={m._id}>
              <button type="button" className="media-card" onClick={() => setOpenId(m._id)} aria-haspopup="dialog">
                <MediaThumbnail media={m} />
                <span className="media-card-name">{mediaName(m)}</span>
                <span className="media-card-meta muted">
                  {m.width && m.height ? `${m.width} × ${m.height} · ` : ''}
                  {formatSize(m.size)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <OffsetPager label="Pages" offset={offset} pageSize={PAGE_SIZE} total={total} onChange={setOffset} />
      {open && <MediaDetailDialog key={open._id} media={open} onClose={() => setOpenId(undefined)} />}
    </>
  );
}
