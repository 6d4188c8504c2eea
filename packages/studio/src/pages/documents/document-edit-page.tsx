import { useParams } from 'react-router';
import { usePageTitle } from '../../ui/page-title';

/** One document's edit form (placeholder until the document pages land). */
export default function DocumentEditPage() {
  const { type, id } = useParams();
  usePageTitle(`${type} ${id}`);
  return (
    <>
      <h1>
        {type} {id}
      </h1>
      <p className="muted">The document editor is coming.</p>
    </>
  );
}
