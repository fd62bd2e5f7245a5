import { Link } from 'react-router-dom';
import { EmptyState } from './EmptyState';


export default function NotFoundPage() {
  return (
    <div className="coming-soon">
      <EmptyState level={1} icon="path-search" title="Page not found" description="There is nothing at this address." action={<Link to="/">Back to the home page</Link>} />
    </div>
  );
}
