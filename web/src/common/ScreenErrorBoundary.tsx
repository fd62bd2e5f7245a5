import { Component, type ReactNode } from 'react';
import { Button, NonIdealState } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';

/** Shows a screen that failed (for example its code could not be loaded twice) instead of a blank page. */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="coming-soon">
        <NonIdealState
          icon="error"
          title={<FormattedMessage id="common.screenError.title" defaultMessage="This screen could not be loaded" />}
          description={<FormattedMessage id="common.screenError.description" defaultMessage="Please check your connection and try again." />}
          action={<Button intent="primary" text={<FormattedMessage id="common.screenError.reload" defaultMessage="Reload" />} onClick={() => window.location.reload()} />}
        />
      </div>
    );
  }
}
