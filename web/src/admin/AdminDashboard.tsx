import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { NonIdealState, Spinner } from '@blueprintjs/core';
import { useSettings } from '../settings/settings-store';
import { AdminShell } from './shell/AdminShell';
import { ADMIN_VIEWS, type AdminView } from './shell/admin-views';
import { SettingsScreen } from './settings/SettingsScreen';
import { MediaLibraryScreen } from './media/MediaLibraryScreen';
import { CatalogueScreen } from './catalogue/CatalogueScreen';
import { OrdersScreen } from './orders/OrdersScreen';
import { DiscountsScreen } from './discounts/DiscountsScreen';


/** The chart library is loaded only when Sales is opened. */
const SalesScreen = lazy(() => import('./sales/SalesScreen'));

/** /admindash: the admin console. The view lives in the URL (?view=) so it survives a reload. */
export default function AdminDashboard() {
  const settings = useSettings();
  const [params, setParams] = useSearchParams();
  const requested = params.get('view');
  const view: AdminView = ADMIN_VIEWS.some((v) => v.id === requested) ? (requested as AdminView) : 'media';

  if (!settings.admin) {
    return (
      <div className="coming-soon">
        <NonIdealState icon="lock" title="Admins only" description="The admin console is for the shop's administrators. Sign in with an admin account to use it." />
      </div>
    );
  }
  return (
    <AdminShell view={view} onSelect={(next) => setParams(next === 'media' ? {} : { view: next })}>
      {view === 'media' && <MediaLibraryScreen />}
      {view === 'catalogue' && <CatalogueScreen />}
      {view === 'orders' && <OrdersScreen />}
      {view === 'discounts' && <DiscountsScreen />}
      {view === 'sales' && (
        <Suspense fallback={<Spinner />}>
          <SalesScreen />
        </Suspense>
      )}
      {view === 'settings' && <SettingsScreen />}
    </AdminShell>
  );
}
