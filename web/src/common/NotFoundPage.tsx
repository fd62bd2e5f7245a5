import { Link } from 'react-router-dom';
import { NonIdealState } from '@blueprintjs/core';

export default function NotFoundPage() {
  return (
    <div className="coming-soon">
      <NonIdealState icon="path-search" title="Page not found" description="There is nothing at this address." action={<Link to="/">Back to the home page</Link>} />
    </div>
  );
}
