import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useApolloClient } from '@apollo/client/react';
import { Spinner } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { useAuth } from '../auth/auth-store';
import { useSettings } from '../settings/settings-store';
import { decideNavigation } from './route-guard';
import { refreshSettings } from '../settings/refresh-settings';
import { settingsCameWithPage } from './initial-state';

/**
 * Applies the route guard on every navigation: the settings are fetched (with the session token),
 * then the rules of route-guard.ts decide. The first screen waits for the settings; later
 * navigations are decided at once on the last known settings and again when the fresh ones arrive.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const client = useApolloClient();
  const auth = useAuth();
  const settings = useSettings();
  const intl = useIntl();

  useEffect(() => {
    // The first screen's settings came with the page (anonymous visitor): no second round trip.
    if (location.key === 'default' && settingsCameWithPage()) return;
    void refreshSettings(client);
  }, [client, location.key]);

  if (!settings.settingsLoaded || (auth.resuming && wouldLeave(location.pathname, settings))) {
    return (
      <div className="app-loading">
        <Spinner aria-label={intl.formatMessage({ id: 'common.loading', defaultMessage: 'Loading' })} />
      </div>
    );
  }
  const decision = decideNavigation({
    pathname: location.pathname,
    underConstructionMode: settings.underConstructionMode,
    signedIn: auth.user !== null,
    admin: settings.admin,
    staff: auth.user?.role === 'staff',
  });
  // The sign-in page brings the visitor back here afterwards.
  if (decision.kind === 'redirect' && decision.to !== location.pathname) return <Navigate to={decision.to} replace state={decision.to === '/login' ? { from: location.pathname + location.search } : undefined} />;
  return <>{children}</>;
}

/** Whether a signed-out visitor would be sent away from this page: while the tab resumes its session, it waits instead. */
function wouldLeave(pathname: string, settings: ReturnType<typeof useSettings>): boolean {
  return decideNavigation({ pathname, underConstructionMode: settings.underConstructionMode, signedIn: false, admin: false }).kind === 'redirect';
}
