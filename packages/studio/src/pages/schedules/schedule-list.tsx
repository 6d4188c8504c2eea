import type { ScheduleStatus } from '@vellum/client';
import type { Session } from '../../auth/session';
import { useSchemas } from '../../queries/config';
import { useScheduleList } from '../../queries/schedules';
import { ListTable } from '../../ui/list-table';
import { OffsetPager } from '../../ui/offset-pager';
import { CancelSchedule, createdByText, mayCancel, ScheduleDocument } from './schedule-parts';
import { actionLabel, shortMoment, STATUS_LABELS } from './schedule-time';

const PAGE = 20;

/** The schedules as a table, ordered by `at`, 20 a page: each one's type, document, action, time, state and maker. */
export function ScheduleList(props: {
  status?: ScheduleStatus;
  type?: string;
  session: Session;
  offset: number;
  onOffset(offset: number): void;
}) {
  const { status, type, session, offset } = props;
  const list = useScheduleList({ status, type, limit: PAGE, offset });
  const titles = new Map((useSchemas().data ?? []).map((s) => [s.name, s.title]));
  return (
    <>
      <ListTable
        label="Schedules"
        columns={['Document', 'Type', 'Action', 'When', 'Status', 'Created by']}
        actions
        list={list}
        empty={status ? `No ${STATUS_LABELS[status].toLowerCase()} schedules.` : 'Nothing has been scheduled.'}
      >
        {(s) => (
          <tr key={s.id}>
            <td>
              <ScheduleDocument schedule={s} />
            </td>
            <td>{titles.get(s.type) ?? s.type}</td>
            <td>{actionLabel(s)}</td>
            <td>
              <time dateTime={s.at}>{shortMoment(s.at)}</time>
            </td>
            <td>
              <span className={`badge schedule-${s.status}`}>{STATUS_LABELS[s.status]}</span>
              {s.error && <div className="error">{s.error}</div>}
            </td>
            <td>{createdByText(session, s.createdBy)}</td>
            <td>{mayCancel(session, s) && <CancelSchedule schedule={s} named />}</td>
          </tr>
        )}
      </ListTable>
      <OffsetPager
        label="Pages of schedules"
        offset={offset}
        pageSize={PAGE}
        total={list.data?.meta.total ?? 0}
        onChange={props.onOffset}
      />
    </>
  );
}
