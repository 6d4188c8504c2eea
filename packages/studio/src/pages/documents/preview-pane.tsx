import { usePreviewGrant } from '../../queries/use-draft-writes';
import { ErrorMessage } from '../../ui/error-message';
import type { Doc } from './schema';

/**
 * The site's preview page for the open document in a frame beside the form (docs/preview.md):
 * a fresh preview token for each revision shown, so the frame reloads after every autosave, and
 * renewed before the token expires.
 */
export function PreviewPane({ type, doc, title }: { type: string; doc: Doc; title: string }) {
  const grant = usePreviewGrant(type, String(doc._id), `${String(doc._version)}:${String(doc._rev)}`, true);
  const url = grant.data?.url;
  return (
    <section className="doc-preview stack" aria-label="Preview">
      <ErrorMessage error={grant.error} />
      {!url && !grant.error && <p className="loading">Loading preview…</p>}
      {url && (
        <>
          <iframe title={`Preview of ${title}`} src={url} />
          <a href={url} target="_blank" rel="noopener noreferrer">
            Open preview in new tab
          </a>
        </>
      )}
    </section>
  );
}
