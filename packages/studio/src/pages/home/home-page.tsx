import { Link } from 'react-router';
import { useSession } from '../../auth/session';
import { useStructure } from '../../queries/config';
import { usePageTitle } from '../../ui/page-title';

/** The studio's first page: a greeting and the content types to start from. */
export default function HomePage() {
  usePageTitle('Home');
  const session = useSession();
  const structure = useStructure();
  return (
    <>
      <h1>Welcome, {session.user?.firstName || session.user?.username}</h1>
      {structure.data?.map((g) => (
        <section key={g.title} aria-labelledby={`home-${g.title}`}>
          <h2 id={`home-${g.title}`}>{g.title}</h2>
          <ul className="cards">
            {g.items.map((i) => (
              <li key={i.schema}>
                <Link to={`/documents/${i.schema}`}>{i.title}</Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
