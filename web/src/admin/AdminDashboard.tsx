import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Spinner } from '@blueprintjs/core';
import { AdminShell } from './shell/AdminShell';
import { AdminsOnly, useConsoleRole } from './shell/console-role';
import { CommandPalette } from './shell/CommandPalette';
import { type AdminView, viewsFor } from './shell/admin-views';
import { SettingsScreen } from './settings/SettingsScreen';
import { MediaLibraryScreen } from './media/MediaLibraryScreen';
import { CatalogueScreen } from './catalogue/CatalogueScreen';
import { ProductsScreen } from './products/ProductsScreen';
import { OrdersScreen } from './orders/OrdersScreen';
import { DiscountsScreen } from './discounts/DiscountsScreen';
import { CustomersScreen } from './customers/CustomersScreen';
import { StaffScreen } from './staff/StaffScreen';
import { AuditScreen } from './audit/AuditScreen';
import { EmailScreen } from './email/EmailScreen';

/** Sales (its chart, tables and range picker) is loaded only when opened. */
const SalesScreen = lazy(() => import('./sales/SalesScreen'));

/**
 * /admindash: the admin console. The view lives in the URL (?view=) so it survives a reload. Admins
 * see every view; staff see Orders, Customers and Sales (the server refuses them the rest).
 */
export default function AdminDashboard() {
  const role = useConsoleRole();
  const [params, setParams] = useSearchParams();
  if (!role) return <AdminsOnly />;
  const views = viewsFor(role);
  const requested = params.get('view');
  const view: AdminView = views.find((v) => v.id === requested)?.id ?? views[0]!.id;
  return (
    <AdminShell view={view} role={role} onSelect={(next) => setParams(next === views[0]!.id ? {} : { view: next })} tools={<CommandPalette role={role} />}>
      {view === 'media' && <MediaLibraryScreen />}
      {view === 'catalogue' && <CatalogueScreen />}
      {view === 'products' && <ProductsScreen />}
      {view === 'orders' && <OrdersScreen />}
      {view === 'customers' && <CustomersScreen />}
      {view === 'discounts' && <DiscountsScreen />}
      {view === 'sales' && (
        <Suspense fallback={<Spinner />}>
          <SalesScreen />
        </Suspense>
      )}
      {view === 'email' && <EmailScreen />}
      {view === 'staff' && <StaffScreen />}
      {view === 'audit' && <AuditScreen />}
      {view === 'settings' && <SettingsScreen />}
    </AdminShell>
  );
}
