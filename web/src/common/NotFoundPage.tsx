import { Link } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { EmptyState } from './EmptyState';


export default function NotFoundPage() {
  const intl = useIntl();
  return (
    <div className="coming-soon">
      <EmptyState level={1} icon="path-search" title={intl.formatMessage({ id: 'page.notFound.title', defaultMessage: 'Page not found' })} description={intl.formatMessage({ id: 'page.notFound.description', defaultMessage: 'There is nothing at this address.' })} action={<Link to="/"><FormattedMessage id="page.notFound.home" defaultMessage="Back to the home page" /></Link>} />
    </div>
  );
}
