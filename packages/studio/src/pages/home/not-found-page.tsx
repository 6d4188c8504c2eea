import { Link } from 'react-router';
import { usePageTitle } from '../../ui/page-title';

export default function NotFoundPage() {
  usePageTitle('Not found');
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no such page in the studio. <Link to="/">Go to the home page</Link>.
      </p>
    </>
  );
}
