import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { client } from '../../api/client';
import { documentTitle } from '../../shell/global-search';
import { ErrorMessage } from '../../ui/error-message';
import { usePageTitle } from '../../ui/page-title';

/** The documents of one type: a plain list until the document pages land. */
export default function DocumentListPage() {
  const { type = '' } = useParams();
  usePageTitle(type);
  const list = useQuery({
    queryKey: ['documents', type, 'list'],
    queryFn: () => client.collections(type).query().orderBy('-_updatedAt').limit(50).page(),
  });
  return (
    <>
      <h1>{type}</h1>
      <ErrorMessage error={list.error} />
      {list.data && list.data.data.length === 0 && <p className="muted">No documents yet.</p>}
      {list.data && list.data.data.length > 0 && (
        <ul>
          {list.data.data.map((d) => (
            <li key={String(d._id)}>
              <Link to={`/documents/${type}/${String(d._id)}`}>{documentTitle(d)}</Link> <span className="muted">{String(d._status)}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
