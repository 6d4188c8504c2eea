import { Link } from 'react-router';
import { useSession } from '../../auth/session';
import { useSchemas, useStructure } from '../../queries/config';
import { titleFields, useHomeDocuments, useScheduledBetween, type HomeSection as Section, type HomeType } from '../../queries/home';
import { hasPermission } from '../../ui/not-allowed';
import { usePageTitle } from '../../ui/page-title';
import { allows } from '../documents/schema';
import { ScheduleDocument } from '../schedules/schedule-parts';
import { addDays, shortMoment, weekStart, zoneName } from '../schedules/schedule-time';
import { AttentionSection } from './home-attention';
import { DocumentRow, HomeSection } from './home-section';
import './home.css';

const DOCUMENT_SECTIONS: Array<{ section: Section; title: string; empty: string }> = [
  { section: 'mine', title: 'My drafts', empty: 'Nothing of yours is waiting to be published.' },
  { section: 'others', title: 'Recently edited by others', empty: 'No one else has edited anything yet.' },
  { section: 'changes', title: 'Unpublished changes', empty: 'No published document has unpublished changes.' },
];

/**
 * The studio's first page (docs/studio.md, "The home"): what the user is working on, what others
 * changed, what waits to be published or is scheduled this week and, for those who may act on
 * them, webhooks and schedules that need attention; then the content types to start from.
 */
export default function HomePage() {
  usePageTitle('Home');
  const session = useSession();
  const structure = useStructure();
  const schemas = useSchemas();
  // The navigation's types are those the user may read (`GET /config/structure`).
  const types: HomeType[] = structure.data?.flatMap((g) => g.items.map((i) => ({ schema: i.schema, title: i.title }))) ?? [];
  const fields = new Map((schemas.data ?? []).map((s) => [s.name, titleFields(s.fields.map((f) => f.name))]));
  const ready = schemas.isSuccess || schemas.isError ? types : [];
  const me = session.user?.id ?? '';
  const mayPublish = types.some((t) => allows(session, 'content:publish', t.schema));
  const webhooks = hasPermission('webhooks:read')(session);
  return (
    <>
      <h1>Welcome, {session.user?.firstName || session.user?.username}</h1>
      <div className="home-grid">
        {types.length > 0 && DOCUMENT_SECTIONS.map((s) => <DocumentSection key={s.section} {...s} me={me} types={ready} fields={fields} />)}
        {types.length > 0 && <ScheduledSection />}
        {(webhooks || mayPublish) && <AttentionSection webhooks={webhooks} schedules={mayPublish} />}
      </div>
      <section aria-labelledby="home-types" className="home-types">
        <h2 id="home-types">Content types</h2>
        {structure.data?.map((g) => (
          <div key={g.title} className="home-type-group">
            <h3>{g.title}</h3>
            <ul className="home-type-links">
              {g.items.map((i) => (
                <li key={i.schema}>
                  <Link to={`/documents/${encodeURIComponent(i.schema)}`}>{i.title}</Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </section>
    </>
  );
}

function DocumentSection(props: {
  section: Section;
  title: string;
  empty: string;
  me: string;
  types: HomeType[];
  fields: Map<string, string[] | undefined>;
}) {
  const { section, title, empty, me, types, fields } = props;
  const list = useHomeDocuments(section, me, types, fields);
  const pending = types.length === 0 || list.isPending;
  return (
    <HomeSection
      id={`home-${section}`}
      title={title}
      list={{ isPending: pending, error: list.error, count: list.data.length }}
      empty={empty}
    >
      {list.data.map((d) => (
        <DocumentRow key={`${d.type}/${d.id}`} doc={d} />
      ))}
    </HomeSection>
  );
}

/** The pending schedules of this week, Monday to Sunday in the viewer's zone, as the Schedules page's week. */
function ScheduledSection() {
  const start = weekStart(new Date());
  const list = useScheduledBetween(start, addDays(start, 7));
  return (
    <HomeSection
      id="home-scheduled"
      title="Scheduled this week"
      list={{ isPending: list.isPending, error: list.error, count: list.data?.data.length }}
      empty="Nothing is scheduled this week."
      more={{ to: '/schedules?view=week', label: `The whole week (${zoneName()})` }}
    >
      {list.data?.data.map((s) => (
        <li key={s.id}>
          <ScheduleDocument schedule={s} />
          <span className="muted home-meta">
            {s.action === 'publish' ? 'Publishes' : 'Unpublishes'} <time dateTime={s.at}>{shortMoment(s.at)}</time>
          </span>
        </li>
      ))}
    </HomeSection>
  );
}
