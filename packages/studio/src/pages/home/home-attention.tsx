import type { Schedule, Webhook } from '@vellum/client';
import { Link } from 'react-router';
import { useFailedSchedules } from '../../queries/home';
import { useWebhooks } from '../../queries/webhooks';
import { when } from '../../ui/when';
import { actionLabel, shortMoment } from '../schedules/schedule-time';
import { ScheduleDocument } from '../schedules/schedule-parts';
import { HomeSection } from './home-section';

/** The first page of webhooks is what the home looks at: 100, the most a page holds (docs/api.md, "Webhooks"). */
const WEBHOOK_PAGE = { limit: 100, offset: 0 };

/** A hook that needs someone: switched off (by a user or by the delivery worker), or failing right now. */
const needsAttention = (w: Webhook) => !w.active || w.consecutiveFailures > 0;

function webhookProblem(w: Webhook): string {
  if (!w.active && w.disabledAt)
    return `Switched off by the delivery worker ${when(w.disabledAt)}${w.disabledReason ? `: ${w.disabledReason}` : ''}`;
  if (!w.active) return 'Switched off';
  return `${w.consecutiveFailures} failed ${w.consecutiveFailures === 1 ? 'attempt' : 'attempts'} in a row`;
}

/**
 * "Needs attention": webhooks switched off or failing (`webhooks:read`) and schedules that
 * failed (those who may publish). Shown only to those who may see one of them.
 */
export function AttentionSection({ webhooks, schedules }: { webhooks: boolean; schedules: boolean }) {
  const hooks = useWebhooks(WEBHOOK_PAGE, webhooks);
  const failed = useFailedSchedules(schedules);
  const troubled = webhooks ? hooks.data?.data.filter(needsAttention) : [];
  const failures: Schedule[] | undefined = schedules ? failed.data?.data : [];
  const count = troubled && failures ? troubled.length + failures.length : undefined;
  return (
    <HomeSection
      id="home-attention"
      title="Needs attention"
      list={{ isPending: (webhooks && hooks.isPending) || (schedules && failed.isPending), error: hooks.error ?? failed.error, count }}
      empty={
        webhooks && schedules
          ? 'Every webhook is on and delivering, and no schedule has failed.'
          : webhooks
            ? 'Every webhook is on and delivering.'
            : 'No schedule has failed.'
      }
      more={schedules ? { to: '/schedules?status=failed', label: 'All failed schedules' } : undefined}
    >
      {troubled?.slice(0, 5).map((w) => (
        <li key={w.id}>
          <Link to={`/admin/webhooks/${encodeURIComponent(w.id)}`}>Webhook {w.name}</Link>
          <span className="muted home-meta">{webhookProblem(w)}</span>
        </li>
      ))}
      {failures?.map((s) => (
        <li key={s.id}>
          <ScheduleDocument schedule={s} />
          <span className="muted home-meta">
            {actionLabel(s)} on <time dateTime={s.at}>{shortMoment(s.at)}</time> failed{s.error ? `: ${s.error}` : ''}
          </span>
        </li>
      ))}
    </HomeSection>
  );
}
