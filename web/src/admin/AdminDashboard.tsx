import { lazy, Suspense } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '@blueprintjs/core';
import { AdminShell } from './shell/AdminShell';
import { AdminsOnly, useConsoleRole } from './shell/console-role';
import { CommandPalette } from './shell/CommandPalette';
import { type AdminView, viewAddress, viewAtPath, viewsFor } from './shell/admin-views';
import { SettingsScreen } from './settings/SettingsScreen';
import { MediaLibraryScreen } from './media/MediaLibraryScreen';
import { CatalogueScreen } from './catalogue/CatalogueScreen';
import { ProductsScreen } from './products/ProductsScreen';
import { OrdersScreen } from './orders/OrdersScreen';
import { DiscountsScreen } from './discounts/DiscountsScreen';
import { GiftCardsScreen } from './gift-cards/GiftCardsScreen';
import { MembershipsScreen } from './memberships/MembershipsScreen';
import { CustomersScreen } from './customers/CustomersScreen';
import { StaffScreen } from './staff/StaffScreen';
import { AuditScreen } from './audit/AuditScreen';
import { EmailScreen } from './email/EmailScreen';
import { PromotionsScreen } from './promotions/PromotionsScreen';
import { ApiKeysScreen } from './api-keys/ApiKeysScreen';
import { WebhooksScreen } from './webhooks/WebhooksScreen';

/** Sales (its chart, tables and range picker) is loaded only when opened. */
const SalesScreen = lazy(() => import('./sales/SalesScreen'));

/**
 * /admindash: the admin console. The view lives in the URL (?view=, or a path of its own such as
 * /admindash/promotions) so it survives a reload. Admins see every view; staff see Orders, Customers
 * and Sales (the server refuses them the rest).
 */
export default function AdminDashboard() {
  const role = useConsoleRole();
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  if (!role) return <AdminsOnly />;
  const views = viewsFor(role);
  const atPath = viewAtPath(pathname);
  const requested = atPath ?? params.get('view');
  const view: AdminView = views.find((v) => v.id === requested)?.id ?? views[0]!.id;
  // `?view=promotions` (an older link, another screen's menu) moves to the view's own address.
  if (!atPath && view === requested && viewAddress(view, role).startsWith('/admindash/')) {
    const rest = new URLSearchParams(params);
    rest.delete('view');
    return <Navigate to={viewAddress(view, role, Object.fromEntries(rest))} replace />;
  }
  return (
    <AdminShell view={view} role={role} onSelect={(next) => void navigate(viewAddress(next, role))} tools={<CommandPalette role={role} />}>
      {view === 'media' && <MediaLibraryScreen />}
      {view === 'catalogue' && <CatalogueScreen />}
      {view === 'products' && <ProductsScreen />}
      {view === 'orders' && <OrdersScreen />}
      {view === 'customers' && <CustomersScreen />}
      {view === 'discounts' && <DiscountsScreen />}
      {view === 'gift-cards' && <GiftCardsScreen />}
      {view === 'memberships' && <MembershipsScreen />}
      {view === 'promotions' && <PromotionsScreen />}
      {view === 'sales' && (
        <Suspense fallback={<Spinner />}>
          <SalesScreen />
        </Suspense>
      )}
      {view === 'email' && <EmailScreen />}
      {view === 'staff' && <StaffScreen />}
      {view === 'audit' && <AuditScreen />}
      {view === 'api-keys' && <ApiKeysScreen />}
      {view === 'webhooks' && <WebhooksScreen />}
      {view === 'settings' && <SettingsScreen />}
    </AdminShell>
  );
}
