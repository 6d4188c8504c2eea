import { VellumApiError, type ScheduleAction } from '@vellum/client';
import { useId, useState, type FormEvent } from 'react';
import { useCreateSchedule } from '../../queries/schedules';
import { ErrorMessage } from '../../ui/error-message';
import { FormDialog, FormDialogActions } from '../../ui/form-dialog';
import { localInputValue, offsetInstant, zoneName } from './schedule-time';

type Field = 'action' | 'at';

/** A 422's details on the field they name; anything else stays with the form. */
function fieldErrors(error: unknown): Partial<Record<Field, string>> {
  if (!(error instanceof VellumApiError) || error.code !== 'VALIDATION_ERROR') return {};
  const out: Partial<Record<Field, string>> = {};
  for (const d of error.details ?? []) if (d.field === 'action' || d.field === 'at') out[d.field] ??= d.message;
  return out;
}

/** The next whole hour from now, a first suggestion for the picker. */
function nextHour(): string {
  const d = new Date();
  d.setHours(d.getHours() + 1, 0, 0, 0);
  return localInputValue(d);
}

/**
 * "Schedule…": a publish or unpublish of this document at a later time (docs/schedules.md). The
 * time is picked in the browser's zone, named beside the picker, and sent with that zone's
 * offset; a time already past is refused here, and the server's 422 is shown on its field.
 */
export function ScheduleDialog({ type, id }: { type: string; id: string }) {
  const [open, setOpen] = useState(false);
  return (
    <FormDialog
      title="Schedule publishing"
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="schedule-trigger">
          Schedule…
        </button>
      }
    >
      {open && <ScheduleForm type={type} id={id} onDone={() => setOpen(false)} />}
    </FormDialog>
  );
}

function ScheduleForm({ type, id, onDone }: { type: string; id: string; onDone(): void }) {
  const ids = useId();
  const zone = zoneName();
  const [action, setAction] = useState<ScheduleAction>('publish');
  const [at, setAt] = useState(nextHour);
  const [local, setLocal] = useState<string>();
  const create = useCreateSchedule(type, id);
  const errors = { ...fieldErrors(create.error), ...(local && { at: local }) };
  const unplaced = Object.keys(fieldErrors(create.error)).length === 0 ? create.error : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.reset();
    const instant = offsetInstant(at);
    if (!instant) return setLocal('Choose a date and a time.');
    if (instant.date.getTime() <= Date.now()) return setLocal('This time is already past: choose a later one.');
    setLocal(undefined);
    create.mutate({ action, at: instant.text }, { onSuccess: onDone });
  };
  const atHelp = `${ids}-at-help`;
  const atError = `${ids}-at-error`;
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <fieldset aria-describedby={errors.action ? `${ids}-action-error` : undefined}>
        <legend>Action</legend>
        <label className="inline">
          <input type="radio" name="action" value="publish" checked={action === 'publish'} onChange={() => setAction('publish')} />
          Publish
        </label>
        <label className="inline">
          <input type="radio" name="action" value="unpublish" checked={action === 'unpublish'} onChange={() => setAction('unpublish')} />
          Unpublish
        </label>
        {errors.action && (
          <span id={`${ids}-action-error`} className="error">
            {errors.action}
          </span>
        )}
      </fieldset>
      <label>
        Date and time
        <input
          type="datetime-local"
          required
          value={at}
          min={localInputValue(new Date())}
          onChange={(e) => {
            setAt(e.target.value);
            setLocal(undefined);
          }}
          aria-invalid={errors.at ? true : undefined}
          aria-describedby={errors.at ? `${atHelp} ${atError}` : atHelp}
        />
      </label>
      <p id={atHelp} className="muted">
        Time zone: {zone}
      </p>
      {errors.at && (
        <p id={atError} className="error" role="alert">
          {errors.at}
        </p>
      )}
      <ErrorMessage error={unplaced} />
      <FormDialogActions submitLabel="Schedule" busy={create.isPending} onCancel={onDone} />
    </form>
  );
}
