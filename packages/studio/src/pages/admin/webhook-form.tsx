import { VellumApiError, type Webhook, type WebhookInput } from '@vellum/client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../ui/error-message';
import { useSchemas } from '../../queries/config';
import { EventPicker } from './event-picker';
import { FormDialogActions } from '../../ui/form-dialog';

const LABELS = { name: 'Name', url: 'URL', events: 'Events', types: 'Document types' };
type Field = keyof typeof LABELS;

/** A 422's details on the fields they name (`events.2` on the event picker); others stay with the form. */
function fieldErrors(error: unknown): Partial<Record<Field, string>> {
  if (!(error instanceof VellumApiError) || error.code !== 'VALIDATION_ERROR') return {};
  const out: Partial<Record<Field, string>> = {};
  for (const d of error.details ?? []) {
    const field = d.field.split('.')[0];
    if (field in LABELS) out[field as Field] ??= `${LABELS[field as Field]} ${d.message}.`;
  }
  return out;
}

/**
 * A new webhook or a change to one (docs/api.md, "Webhooks"): name, URL, the event picker, the
 * document types it is limited to (none ticked: all) and whether it is on. The server checks
 * everything again; its 422 messages are shown on their fields.
 */
export function WebhookForm({
  webhook,
  onSubmit,
  onCancel,
}: {
  webhook?: Webhook;
  onSubmit: (input: WebhookInput) => Promise<unknown>;
  onCancel: () => void;
}) {
  const schemas = useSchemas();
  const [name, setName] = useState(webhook?.name ?? '');
  const [url, setUrl] = useState(webhook?.url ?? 'https://');
  const [events, setEvents] = useState<string[]>(webhook?.events ?? []);
  const [types, setTypes] = useState<string[]>(webhook?.types ?? []);
  const [active, setActive] = useState(webhook?.active ?? true);
  const submitted = useMutation({ mutationFn: onSubmit });
  const { error, reset } = submitted;
  // An empty choice is refused here, with a clearer sentence than the schema's (the server refuses it too).
  const [noEvents, setNoEvents] = useState(false);
  const errors = { ...fieldErrors(error), ...(noEvents && { events: 'Choose at least one event.' }) };
  const unplaced = Object.keys(errors).length === 0 ? error : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (events.length === 0) {
      reset();
      setNoEvents(true);
      return;
    }
    submitted.mutate({ name: name.trim(), url: url.trim(), events, types, active });
  };
  const described = (field: Field) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `webhook-${field}-error` : undefined,
  });
  const message = (field: Field) =>
    errors[field] && (
      <span id={`webhook-${field}-error`} className="error">
        {errors[field]}
      </span>
    );
  const toggleType = (type: string, on: boolean) => setTypes(on ? [...types, type] : types.filter((t) => t !== type));
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <label>
        Name
        <input type="text" required value={name} onChange={(e) => setName(e.target.value)} {...described('name')} />
        {message('name')}
      </label>
      <label>
        URL
        <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} {...described('url')} />
        {message('url')}
      </label>
      <EventPicker
        value={events}
        onChange={(next) => {
          setEvents(next);
          setNoEvents(false);
        }}
        error={errors.events}
      />
      <fieldset {...described('types')}>
        <legend>Document types</legend>
        <p className="muted">Document events of these types only; none ticked means every type.</p>
        {message('types')}
        <ErrorMessage error={schemas.error} />
        <div className="event-picker">
          {(schemas.data ?? []).map((s) => (
            <label key={s.name} className="inline">
              <input type="checkbox" checked={types.includes(s.name)} onChange={(e) => toggleType(s.name, e.target.checked)} />
              {`${s.title} (${s.name})`}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="inline">
        <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
        Active (events are sent)
      </label>
      <ErrorMessage error={unplaced} />
      <FormDialogActions submitLabel={webhook ? 'Save changes' : 'Create webhook'} busy={submitted.isPending} onCancel={onCancel} />
    </form>
  );
}
