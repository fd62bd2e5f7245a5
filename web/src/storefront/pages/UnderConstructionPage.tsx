import { Link, Navigate } from 'react-router-dom';
import { Card, H1 } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { useSettings } from '../../settings/settings-store';
import { StandalonePage } from '../../common/StandalonePage';

/** Shown to everyone but a signed-in admin while the site is under construction. */
export default function UnderConstructionPage() {
  const { settingsLoaded, underConstructionMode } = useSettings();
  // Once the shop is open again the notice has nothing to say.
  if (settingsLoaded && !underConstructionMode) return <Navigate to="/" replace />;
  return (
    <StandalonePage brandLinksHome={false}>
      <Card className="auth-card under-construction" elevation={2}>
        <img src="/favicon.svg" alt="" width={72} height={72} />
        <H1>
          <FormattedMessage id="page.underConstruction.title" defaultMessage="We are tuning up" />
        </H1>
        <p>
          <FormattedMessage id="page.underConstruction.text" defaultMessage="The shop is closed for a little while as we make it even better. Please come back soon — your greetings will be worth the wait." />
        </p>
        <p className="muted">
          <FormattedMessage id="page.underConstruction.owner" defaultMessage="Running the shop? <link>Sign in</link>" values={{ link: (chunks) => <Link to="/login">{chunks}</Link> }} />
        </p>
      </Card>
    </StandalonePage>
  );
}
