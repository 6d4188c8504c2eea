import { useState } from 'react';
import { useAuditLog } from '../../queries/admin';
import { useStudioConfig } from '../../queries/config';
import { ErrorMessage } from '../../ui/error-message';
import { isAdmin, NotAllowed, useAllowed } from '../../ui/not-allowed';
import { usePageTitle } from '../../ui/page-title';
import './admin.css';

const PAGE = 50;
const TABLE_LABEL = 'Audit records';

/** Midnight at the start of a `<input type=date>` day in the browser's time zone, `days` later. */
function localMidnight(day: string, days = 0): Date {
  const d = new Date(`${day}T00:00:00`);
  d.setDate(d.getDate() + days);
  return d;
}

/**
 * The audit log (`GET /audit`, admins only by role): newest first, filtered by event type and a
 * range of days in the browser's time zone (the server's `since`, inclusive, and `until`,
 * exclusive: the "Until" day is included), 50 a page.
 */
export default function AuditPage() {
  usePageTitle('Audit log');
  const { ok } = useAllowed(isAdmin);
  const [type, setType] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [offset, setOffset] = useState(0);
  // The event kinds come from the server (`GET /config/studio`), so a new kind shows up here.
  const config = useStudioConfig();
  const records = useAuditLog(
    {
      type: type || undefined,
      since: since ? localMidnight(since) : undefined,
      // The server's `until` is exclusive: the last day chosen is included up to its end.
      until: until ? localMidnight(until, 1) : undefined,
      limit: PAGE,
      offset,
    },
    ok,
  );
  if (!ok) return <NotAllowed title="Audit log" needs="the admin role" />;
  const total = records.data?.meta.total ?? 0;
  return (
    <>
      <h1>Audit log</h1>
      <div className="toolbar">
        <label>
          Event type
          <select
            value={type}
            onChange={(e) => {
              setType(e.target.value);
              setOffset(0);
            }}
          >
            <option value="">All events</option>
            {(config.data?.auditEvents ?? []).map((e) => (
              <option key={e}>{e}</option>
            ))}
          </select>
        </label>
        <label>
          Since
          <input
            type="date"
            value={since}
            onChange={(e) => {
              setSince(e.target.value);
              setOffset(0);
            }}
          />
        </label>
        <label>
          Until
          <input
            type="date"
            value={until}
            min={since || undefined}
            onChange={(e) => {
              setUntil(e.target.value);
              setOffset(0);
            }}
          />
        </label>
      </div>
      <ErrorMessage error={records.error} />
      {records.data && records.data.data.length === 0 && <p className="muted">No records match.</p>}
      {records.data && records.data.data.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label={TABLE_LABEL}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Actor</th>
                <th scope="col">Target</th>
                <th scope="col">IP</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {records.data.data.map((r) => (
                <tr key={r.id}>
                  <td>{new Date(r.at).toLocaleString()}</td>
                  <td>{r.type}</td>
                  <td>
                    {r.actor.kind}
                    {r.actor.id && <div className="muted">{r.actor.id}</div>}
                  </td>
                  <td>{r.target ?? '—'}</td>
                  <td>{r.ip ?? '—'}</td>
                  <td>{r.details ? <code>{JSON.stringify(r.details)}</code> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > 0 && (
        <nav className="pager" aria-label="Pages of the audit log">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Newer
          </button>
          <span>
            {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
          </span>
          <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
            Older
          </button>
        </nav>
      )}
    </>
  );
}
