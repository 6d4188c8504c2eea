import { VellumApiError } from '@vellum/client';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useContentLocale } from '../../queries/content-locale';
import { useDocument } from '../../queries/use-document-queries';
import { useRestoreRevision, useSaveDocument } from '../../queries/use-document-writes';
import { useSaveDraft, useUnpublishDocument } from '../../queries/use-draft-writes';
import { cleanValues, defaultValues, mergePatch, ownValues, sameValues } from './document-values';
import type { FieldErrors } from './fields/field-props';
import type { Doc, Field } from './schema';

/** The path `new` opens an empty form; saving it creates the document. */
export const NEW = 'new';

/** How a save ended: a 412 is the caller's to ask about (reload theirs or overwrite). */
export type SaveOutcome = 'saved' | 'conflict' | 'failed';

/**
 * The edit page's form of one document: the values from the stored version (or the defaults of
 * a new one), what is unsaved, and the page's own writes (save, restore, delete). While one of
 * those is in flight the page is `busy`: nothing is reloaded under it, since the values being
 * written are still unsaved and an event can come before the write answers (docs/studio.md,
 * "Live updates"). Drafts and locales change what is read and written here, and only here:
 * a published document is read as its pending draft and saved into it (`drafting`,
 * docs/drafts.md), a document that is not published is saved as a whole.
 */
export function useDocumentForm(type: string, id: string, fields: Field[], schemaName: string | undefined) {
  const isNew = id === NEW;
  const navigate = useNavigate();
  const loaded = useDocument(type, id, { enabled: !isNew, keep: true });
  // In a content locale other than the default, the form holds that locale's own values (docs/localization.md).
  const locale = useContentLocale().code;
  const doc = loaded.data;
  const saveDocument = useSaveDocument(type);
  const saveDraft = useSaveDraft(type, id);
  const unpublish = useUnpublishDocument(type, id);
  const restoreRevision = useRestoreRevision(type, id);
  const [values, setValues] = useState<Doc>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  // Set in the handler that starts the write, not read from the mutation: its pending state
  // reaches the page a task later, and the live watch must hold events from the first moment.
  const [saving, setSaving] = useState(false);
  const [restoring, setRestoring] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // A publish, discard or unpublish of the pending draft (draft-actions.tsx) in flight.
  const [writing, setWriting] = useState(false);
  /** When the last draft save answered (the autosave's "Saved"). */
  const [savedAt, setSavedAt] = useState<number>();
  // The values a draft save sent: when its answer becomes the baseline, values typed since it
  // went out are kept (the next autosave sends them) rather than replaced by the answer.
  const sentDraft = useRef<Doc | undefined>(undefined);
  // Edits go to the pending draft while the main version is published (docs/drafts.md).
  const drafting = !isNew && doc?._status === 'published';

  // The form starts from the stored document each time it is (re)read, or from the defaults.
  // The schema is part of the key: a document read before its schema has no fields to fill yet.
  const baseline = isNew ? defaultValues(fields) : ownValues(doc, fields);
  const baselineKey = isNew
    ? `new:${schemaName}`
    : `${schemaName}:${String(doc?._id)}:${locale ?? ''}:${String(doc?._rev)}:${loaded.dataUpdatedAt}`;
  // Set while rendering, not in an effect: a newer version read (someone else's save, a restore)
  // never renders once with the old values against the new baseline, which would read as
  // unsaved changes and flash "while you were editing" (docs/studio.md, "Live updates").
  const [valuesKey, setValuesKey] = useState<string>();
  if (valuesKey !== baselineKey) {
    setValuesKey(baselineKey);
    const sent = sentDraft.current;
    sentDraft.current = undefined;
    if (!sent || sent === values) setValues(baseline);
    setErrors({});
  }

  const unsaved = isNew ? fields.length > 0 && !sameValues(values, baseline) : !!doc && !sameValues(values, baseline);

  const setField = (name: string, value: unknown) =>
    setValues((prev) => {
      const next = { ...prev, [name]: value };
      if (value === undefined) delete next[name];
      return next;
    });

  /** Writes the form (and a status, when one is given), checked against the revision it was read at. */
  const save = async (status?: string, opts: { overwrite?: boolean } = {}): Promise<SaveOutcome> => {
    setSaving(true);
    setFailure(undefined);
    setNotice(undefined);
    const body = { ...((cleanValues(values) as Doc | undefined) ?? {}), ...(status ? { _status: status } : {}) } as Doc;
    try {
      if (drafting && !status) {
        const sent = values;
        const patch = mergePatch(cleanValues(baseline), cleanValues(sent));
        const ifMatch = doc?._version === 'draft' ? (doc._rev as number) : { main: doc?._rev as number };
        // The cached answer becomes the baseline during this call: mark what was sent first.
        sentDraft.current = sent;
        await saveDraft.mutateAsync({
          patch,
          ifMatch,
          overwrite: opts.overwrite ? { repatch: (now) => mergePatch(cleanValues(ownValues(now, fields)), cleanValues(sent)) } : undefined,
        });
        setErrors({});
        setSavedAt(Date.now());
        return 'saved';
      }
      if (isNew) {
        const created = await saveDocument.mutateAsync({ body });
        setValues(ownValues(created, fields));
        // Unawaited: the router handles a failed navigation itself.
        void navigate(`/documents/${type}/${String(created._id)}`, { replace: true });
        return 'saved';
      }
      if (drafting) {
        // Archiving a published document (the one status change offered on it): it is taken
        // down first (the main version becomes its pending draft, docs/drafts.md), then the form,
        // edits not yet autosaved included, is written with the new status. Nothing of the draft
        // is left behind, and the live content stays in the history.
        const down = await unpublish.mutateAsync();
        await saveDocument.mutateAsync({ id, body, ifMatch: down._rev as number });
      } else await saveDocument.mutateAsync({ id, body, ifMatch: doc?._rev as number, overwrite: opts.overwrite });
      setErrors({});
      setNotice(status ? `Saved and ${status}.` : 'Saved.');
      return 'saved';
    } catch (err) {
      sentDraft.current = undefined;
      if (err instanceof VellumApiError && err.code === 'PRECONDITION_FAILED') return 'conflict';
      if (err instanceof VellumApiError && err.code === 'VALIDATION_ERROR' && err.details?.length) {
        setErrors(Object.fromEntries(err.details.map((d) => [d.field, d.message])));
      }
      setFailure(err);
      return 'failed';
    } finally {
      setSaving(false);
    }
  };

  /**
   * Restores a revision (a new revision with its fields; on a published document, its pending
   * draft). The answer is shown at once, so its event finds the page already at the revision it made.
   */
  const restore = async (rev: number, kind?: 'main' | 'draft') => {
    setRestoring(true);
    setNotice(undefined);
    try {
      await restoreRevision.mutateAsync({ rev, kind });
      setNotice(`${kind === 'draft' ? 'Draft save' : 'Revision'} ${rev} restored.`);
    } finally {
      setRestoring(false);
    }
  };

  return {
    isNew,
    doc,
    /** The stored document could not be read. */
    loadError: loaded.error,
    values,
    setField,
    errors,
    failure,
    notice,
    setNotice,
    unsaved,
    /** Unsaved and not being saved: what leaving would lose. */
    dirty: unsaved && !saving,
    saving,
    drafting,
    savedAt,
    busy: saving || deleting || restoring || writing,
    save,
    restore,
    /** Reads the stored version again (someone else's), replacing the values. */
    reload: () => void loaded.refetch(),
    /** The delete request goes out, or failed: its own change event must not read as someone else's. */
    setDeleting,
    /** A publish, discard or unpublish goes out, or has answered: its events are this page's own. */
    setWriting,
    /** The document is gone: nothing is left unsaved to ask about when leaving. */
    discard: () => setValues(baseline),
  };
}

export type DocumentForm = ReturnType<typeof useDocumentForm>;
