import { Suspense, useEffect } from 'react';
import { createBrowserRouter, matchRoutes, Outlet, RouterProvider, type RouteObject } from 'react-router-dom';
import { Spinner } from '@blueprintjs/core';
import { ScreenErrorBoundary } from '../common/ScreenErrorBoundary';
import { Layout } from './Layout';
import { RouteGuard } from './RouteGuard';
import { lazyWithReload } from './lazy-with-reload';
import { localeBase } from '@rules';
import { pageLocale } from '../i18n/page-intl';

const HomePage = lazyWithReload(() => import('../storefront/home/HomePage'));
const ShopPage = lazyWithReload(() => import('../storefront/shop/ShopPage'));
const ProductOrderPage = lazyWithReload(() => import('../storefront/product/ProductOrderPage'));
const PaymentsPage = lazyWithReload(() => import('../storefront/checkout/PaymentsPage'));
const CartPage = lazyWithReload(() => import('../storefront/cart/CartPage'));
const OrderConfirmationPage = lazyWithReload(() => import('../storefront/order/OrderConfirmationPage'));
const AccountPage = lazyWithReload(() => import('../storefront/account/AccountPage'));
const ContactsPage = lazyWithReload(() => import('../storefront/contacts/ContactsPage'));
const StopReminderPage = lazyWithReload(() => import('../storefront/contacts/StopReminderPage'));
const BlogListPage = lazyWithReload(() => import('../blog/BlogListPage'));
const BlogPostPage = lazyWithReload(() => import('../blog/BlogPostPage'));
const BlogEditorPage = lazyWithReload(() => import('../blog/editor/BlogEditorPage'));
const AdminDashboard = lazyWithReload(() => import('../admin/AdminDashboard'));
const ProductEditorPage = lazyWithReload(() => import('../admin/products/ProductEditorPage'));
const SettingsPage = lazyWithReload(() => import('../admin/settings/SettingsPage'));
const LoginPage = lazyWithReload(() => import('../auth/LoginPage'));
const StaffAcceptPage = lazyWithReload(() => import('../auth/StaffAcceptPage'));
const ForgotPasswordPage = lazyWithReload(() => import('../auth/ForgotPasswordPage'));
const ResetPasswordPage = lazyWithReload(() => import('../auth/ResetPasswordPage'));
const VerifyEmailPage = lazyWithReload(() => import('../auth/VerifyEmailPage'));
const UnsubscribePage = lazyWithReload(() => import('../storefront/unsubscribe/UnsubscribePage'));
const GiftCardBalancePage = lazyWithReload(() => import('../storefront/gift-cards/GiftCardBalancePage'));
const GiftCardPage = lazyWithReload(() => import('../storefront/gift-cards/GiftCardPage'));
const MembershipPage = lazyWithReload(() => import('../storefront/membership/MembershipPage'));
const DevelopersPage = lazyWithReload(() => import('../storefront/developers/DevelopersPage'));
const AccountSettingsPage = lazyWithReload(() => import('../storefront/account-settings/AccountSettingsPage'));
const UnderConstructionPage = lazyWithReload(() => import('../storefront/pages/UnderConstructionPage'));
const NotFoundPage = lazyWithReload(() => import('../common/NotFoundPage'));

const loading = (
  <div className="app-loading">
    <Spinner aria-label="Loading" />
  </div>
);

/**
 * Tells a page the server drew (web/public/boot.js) that its screen has been hydrated: placed
 * inside the screen's Suspense boundary, its effect runs once the boundary's HTML is the app's.
 */
function ScreenReady() {
  useEffect(() => {
    window.storefrontReady?.();
  }, []);
  return null;
}

/** Every screen passes the route guard first; a screen that fails shows an error, not a blank page. */
function Root() {
  return (
    <RouteGuard>
      <ScreenErrorBoundary>
        <Suspense fallback={loading}>
          <Outlet />
          <ScreenReady />
        </Suspense>
      </ScreenErrorBoundary>
    </RouteGuard>
  );
}

/** The route table of the product (seed.md section 2); shared by the browser and the server's rendering (entry-server.tsx). */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      {
        path: '/',
        element: <Layout />,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'shop', element: <ShopPage /> },
          { path: 'product/:id', element: <ProductOrderPage /> },
          { path: 'payments', element: <PaymentsPage /> },
          { path: 'cart', element: <CartPage /> },
          { path: 'order-confirmation/:id', element: <OrderConfirmationPage /> },
          { path: 'account', element: <AccountPage /> },
          { path: 'account/settings', element: <AccountSettingsPage /> },
          { path: 'account/contacts', element: <ContactsPage /> },
          { path: 'reminders/stop', element: <StopReminderPage /> },
          { path: 'gift-cards', element: <GiftCardBalancePage /> },
          { path: 'gift-card', element: <GiftCardPage /> },
          { path: 'membership', element: <MembershipPage /> },
          { path: 'developers', element: <DevelopersPage /> },
          { path: 'blog', element: <BlogListPage /> },
          { path: 'blog/:id', element: <BlogPostPage /> },
          { path: 'admin/blog/new', element: <BlogEditorPage /> },
          { path: 'admin/blog/edit/:id', element: <BlogEditorPage /> },
          { path: 'admindash', element: <AdminDashboard /> },
          { path: 'admindash/promotions', element: <AdminDashboard /> },
          { path: 'admindash/products/:id', element: <ProductEditorPage /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { path: '/login', element: <LoginPage /> },
      { path: '/staff/accept', element: <StaffAcceptPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/verify-email', element: <VerifyEmailPage /> },
      { path: '/unsubscribe', element: <UnsubscribePage /> },
      { path: '/under-construction', element: <UnderConstructionPage /> },
    ],
  },
];

/**
 * Fetches the code of the screens a path shows, before the first render: a page the server
 * rendered then hydrates at once, with no loading fallback in between.
 */
export async function preloadScreens(pathname: string): Promise<void> {
  await preloadMatchedScreens(matchRoutes(routes, pathname, localeBase(pageLocale())) ?? []);
}

/** The same for routes already matched (matching walks every route of the app: done once per request). */
export async function preloadMatchedScreens(matches: readonly { route: { element?: unknown } }[]): Promise<void> {
  const screens = matches
    .map((match) => (match.route.element as { type?: { preload?: () => Promise<void> } } | undefined)?.type?.preload)
    .filter((preload) => typeof preload === 'function');
  await Promise.all(screens.map((preload) => preload()));
}

let router: ReturnType<typeof createBrowserRouter> | null = null;

export function App() {
  // The page's language is the base of its addresses: under /de every link and navigation stays German.
  router ??= createBrowserRouter(routes, { basename: localeBase(pageLocale()) });
  return <RouterProvider router={router} />;
}
