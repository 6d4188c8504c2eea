import type { ScheduleAction } from '@vellum/client';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { Session } from '../../../auth/session';
import { documentKeys } from '../../../queries/document-keys';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { FormDialog, FormDialogActions } from '../../../ui/form-dialog';
import { localInputValue, offsetInstant, zoneName } from '../../schedules/schedule-time';
import { allows } from '../schema';
import { ACTION_LABEL, errorText, runOne, type BulkAction, type BulkResult } from './bulk-run';

interface Run {
  action: BulkAction;
  total: number;
  results: BulkResult[];
  finished: boolean;
}

/**
 * The selection's actions (docs/studio.md, "Lists"): publish, unpublish, schedule and delete,
 * each shown as the user's permissions allow (as on a document's page). The action runs one
 * document at a time through the typed client, with a progress bar, Cancel, and each document's
 * outcome: done, or the server's answer (a delete refused while others reference it names them).
 */
export function BulkBar(props: {
  type: string;
  ids: string[];
  titles: ReadonlyMap<string, string>;
  session: Session;
  onClear(): void;
  onKeep(ids: string[]): void;
}) {
  const { type, ids, session } = props;
  const queryClient = useQueryClient();
  const canPublish = allows(session, 'content:publish', type);
  const canDelete = allows(session, 'content:delete', type);
  const [run, setRun] = useState<Run>();
  const cancelled = useRef(false);
  const id = useId();

  const start = async (action: BulkAction) => {
    const targets = [...ids];
    cancelled.current = false;
    const results: BulkResult[] = [];
    setRun({ action, total: targets.length, results, finished: false });
    for (const docId of targets) {
      if (cancelled.current) break;
      try {
        await runOne(type, docId, action);
        results.push({ id: docId, ok: true, message: 'Done' });
      } catch (err) {
        results.push({ id: docId, ok: false, message: errorText(err) });
      }
      setRun({ action, total: targets.length, results: [...results], finished: false });
    }
    setRun({ action, total: targets.length, results: [...results], finished: true });
    // Unawaited: the lists refresh in the background.
    void queryClient.invalidateQueries({ queryKey: documentKeys.ofType(type) });
    // What did not go through stays selected, to try again or look at.
    const succeeded = new Set(results.filter((r) => r.ok).map((r) => r.id));
    props.onKeep(targets.filter((x) => !succeeded.has(x)));
  };

  const running = run && !run.finished;
  const done = run?.results.length ?? 0;
  const label =
    run &&
    `${ACTION_LABEL[run.action.kind]} ${done} of ${run.total}${run.finished ? (cancelled.current ? ' (cancelled)' : ' (finished)') : ''}`;
  const n = ids.length;
  const docs = `${n.toLocaleString()} document${n === 1 ? '' : 's'}`;

  return (
    <section className="bulk-bar" aria-label="Selected documents">
      {n > 0 && (
        <div className="row bulk-actions">
          <span>{docs} selected</span>
          {canPublish && (
            <>
              <button type="button" disabled={running} onClick={() => void start({ kind: 'publish' })}>
                Publish
              </button>
              <button type="button" disabled={running} onClick={() => void start({ kind: 'unpublish' })}>
                Unpublish
              </button>
              <BulkSchedule disabled={!!running} count={docs} onSchedule={(action, at) => void start({ kind: 'schedule', action, at })} />
            </>
          )}
          {canDelete && (
            <ConfirmDialog
              title={`Delete ${docs}?`}
              trigger={
                <button type="button" className="danger" disabled={running}>
                  Delete…
                </button>
              }
              confirmLabel={`Delete ${docs}`}
              onConfirm={async () => void start({ kind: 'delete' })}
            >
              Each is deleted unless other documents reference it; those are listed with their referrers.
            </ConfirmDialog>
          )}
          <button type="button" disabled={running} onClick={props.onClear}>
            Clear selection
          </button>
        </div>
      )}
      {run && (
        <div className="bulk-run">
          <label htmlFor={`${id}-progress`}>{label}</label>
          <progress id={`${id}-progress`} value={done} max={run.total} />
          {running ? (
            <button type="button" onClick={() => (cancelled.current = true)}>
              Cancel
            </button>
          ) : (
            <button type="button" onClick={() => setRun(undefined)}>
              Close results
            </button>
          )}
          <ul className="bulk-results" aria-label="Results">
            {run.results.map((r) => (
              <li key={r.id} className={r.ok ? 'bulk-ok' : 'bulk-failed'}>
                <strong>{props.titles.get(r.id) ?? r.id}</strong>: {r.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** "Schedule…" for the selection: one action and time for each (docs/schedules.md), in the browser's zone. */
function BulkSchedule({
  disabled,
  count,
  onSchedule,
}: {
  disabled: boolean;
  count: string;
  onSchedule(a: ScheduleAction, at: string): void;
}) {
  const [open, setOpen] = useState(false);
  const ids = useId();
  const [action, setAction] = useState<ScheduleAction>('publish');
  const [at, setAt] = useState(() => {
    const d = new Date();
    d.setHours(d.getHours() + 1, 0, 0, 0);
    return localInputValue(d);
  });
  const [problem, setProblem] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const instant = offsetInstant(at);
    if (!instant) return setProblem('Choose a date and a time.');
    if (instant.date.getTime() <= Date.now()) return setProblem('This time is already past: choose a later one.');
    setProblem(undefined);
    setOpen(false);
    onSchedule(action, instant.text);
  };
  return (
    <FormDialog
      title={`Schedule ${count}`}
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" disabled={disabled}>
          Schedule…
        </button>
      }
    >
      <form className="stack" onSubmit={submit} noValidate>
        <fieldset>
          <legend>Action</legend>
          <label className="inline">
            <input type="radio" name="action" checked={action === 'publish'} onChange={() => setAction('publish')} /> Publish
          </label>
          <label className="inline">
            <input type="radio" name="action" checked={action === 'unpublish'} onChange={() => setAction('unpublish')} /> Unpublish
          </label>
        </fieldset>
        <label htmlFor={`${ids}-at`}>When</label>
        <input
          id={`${ids}-at`}
          type="datetime-local"
          value={at}
          onChange={(e) => setAt(e.target.value)}
          aria-describedby={`${ids}-zone${problem ? ` ${ids}-problem` : ''}`}
          aria-invalid={!!problem}
        />
        <p id={`${ids}-zone`} className="muted">
          In your time zone, {zoneName()}.
        </p>
        {problem && (
          <p id={`${ids}-problem`} className="error" role="alert">
            {problem}
          </p>
        )}
        <FormDialogActions submitLabel="Schedule" busy={false} onCancel={() => setOpen(false)} />
      </form>
    </FormDialog>
  );
}
