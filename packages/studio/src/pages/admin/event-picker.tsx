import { useStudioConfig } from '../../queries/config';
import { ErrorMessage } from '../../ui/error-message';
import { EVERYTHING, eventGroups, resourceTitle } from './webhook-events';

/**
 * The events a webhook subscribes to: "Everything" (`*`), then a group per resource with "All
 * … events" (`document.*`) and each event. A wider choice replaces the narrower ones it covers,
 * which stay ticked and disabled under it, so the value holds no redundant pattern.
 */
export function EventPicker({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (next: string[]) => void;
  /** The server's message for `events` or one of its items, shown under the legend. */
  error?: string;
}) {
  const config = useStudioConfig();
  const everything = value.includes(EVERYTHING);
  const errorId = error ? 'webhook-events-error' : undefined;
  if (!config.data)
    return (
      <fieldset>
        <legend>Events</legend>
        <ErrorMessage error={config.error} />
        {!config.error && (
          <p className="loading" role="status">
            Loading events…
          </p>
        )}
      </fieldset>
    );
  return (
    <fieldset aria-describedby={errorId} aria-invalid={error ? true : undefined}>
      <legend>Events</legend>
      {error && (
        <span id={errorId} className="error">
          {error}
        </span>
      )}
      <label className="inline">
        <input type="checkbox" checked={everything} onChange={(e) => onChange(e.target.checked ? [EVERYTHING] : [])} />
        <span>
          Everything (<code>*</code>), including events added later
        </span>
      </label>
      <div className="event-picker">
        {eventGroups(config.data.webhookEvents).map((g) => {
          const allOfIt = everything || value.includes(g.all);
          const others = value.filter((p) => p !== g.all && !g.events.includes(p));
          return (
            <fieldset key={g.resource}>
              <legend>{resourceTitle(g.resource)}</legend>
              <label className="inline">
                <input
                  type="checkbox"
                  checked={allOfIt}
                  disabled={everything}
                  onChange={(e) => onChange(e.target.checked ? [...others, g.all] : others)}
                />
                <span>
                  All {g.resource} events (<code>{g.all}</code>)
                </span>
              </label>
              {g.events.map((event) => (
                <label key={event} className="inline">
                  <input
                    type="checkbox"
                    checked={allOfIt || value.includes(event)}
                    disabled={allOfIt}
                    onChange={(e) => onChange(e.target.checked ? [...value, event] : value.filter((p) => p !== event))}
                  />
                  <code>{event}</code>
                </label>
              ))}
            </fieldset>
          );
        })}
      </div>
    </fieldset>
  );
}
