import { NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { FormattedMessage } from 'react-intl';

/** An honest placeholder for a screen that is not built yet. */
export function ComingSoon({ title, icon, children }: { title: string; icon: IconName; children: string }) {
  return (
    <div className="coming-soon">
      <NonIdealState icon={icon} title={title} description={children} action={<span className="coming-soon-tag"><FormattedMessage id="common.comingSoon" defaultMessage="Coming soon" /></span>} />
    </div>
  );
}
