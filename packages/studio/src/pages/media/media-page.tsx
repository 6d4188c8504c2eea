import { usePageTitle } from '../../ui/page-title';

/** The media library (placeholder until the media pages land). */
export default function MediaPage() {
  usePageTitle('Media');
  return (
    <>
      <h1>Media</h1>
      <p className="muted">The media library is coming.</p>
    </>
  );
}
