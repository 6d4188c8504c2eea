import type { DocumentForm } from './use-document-form';

/**
 * The header's line for a published document edited as its draft (docs/drafts.md): whether the
 * draft differs from what is live, and the autosave's progress, announced politely.
 */
export function DraftStatus({ form }: { form: DocumentForm }) {
  const pending = form.doc?._version === 'draft';
  const progress = form.saving ? 'Saving…' : form.unsaved ? 'Unsaved changes' : form.savedAt ? 'Saved' : '';
  return (
    <>
      <span className={pending ? 'badge badge-changed' : 'muted'}>{pending ? 'Unpublished changes' : 'Published — editing a draft'}</span>
      <span role="status" aria-live="polite" className="muted autosave-status">
        {progress}
      </span>
    </>
  );
}
