import { Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { Spinner } from '@blueprintjs/core';
import { ScreenErrorBoundary } from '../common/ScreenErrorBoundary';
import { Layout } from './Layout';
import { RouteGuard } from './RouteGuard';
import { lazyWithReload } from './lazy-with-reload';

const HomePage = lazyWithReload(() => import('../storefront/home/HomePage'));
const ShopPage = lazyWithReload(() => import('../storefront/pages/ShopPage'));
const ProductOrderPage = lazyWithReload(() => import('../storefront/pages/ProductOrderPage'));
const PaymentsPage = lazyWithReload(() => import('../storefront/pages/PaymentsPage'));
const CartPage = lazyWithReload(() => import('../storefront/pages/CartPage'));
const OrderConfirmationPage = lazyWithReload(() => import('../storefront/pages/OrderConfirmationPage'));
const BlogListPage = lazyWithReload(() => import('../blog/BlogListPage'));
const BlogPostPage = lazyWithReload(() => import('../blog/BlogPostPage'));
const BlogEditorPage = lazyWithReload(() => import('../blog/BlogEditorPage'));
const AdminDashboard = lazyWithReload(() => import('../admin/AdminDashboard'));
const SettingsPage = lazyWithReload(() => import('../admin/settings/SettingsPage'));
const LoginPage = lazyWithReload(() => import('../auth/LoginPage'));
const UnderConstructionPage = lazyWithReload(() => import('../storefront/pages/UnderConstructionPage'));
const NotFoundPage = lazyWithReload(() => import('../common/NotFoundPage'));

const loading = (
  <div className="app-loading">
    <Spinner aria-label="Loading" />
  </div>
);

/** The route table of the product (seed.md section 2), behind the route guard. */
export function App() {
  return (
    <BrowserRouter>
      <RouteGuard>
        <ScreenErrorBoundary>
          <Suspense fallback={loading}>
            <Routes>
              <Route path="/" element={<Layout />}>
                <Route index element={<HomePage />} />
                <Route path="shop" element={<ShopPage />} />
                <Route path="product/:id" element={<ProductOrderPage />} />
                <Route path="payments" element={<PaymentsPage />} />
                <Route path="cart" element={<CartPage />} />
                <Route path="order-confirmation/:id" element={<OrderConfirmationPage />} />
                <Route path="blog" element={<BlogListPage />} />
                <Route path="blog/:id" element={<BlogPostPage />} />
                <Route path="admin/blog/new" element={<BlogEditorPage />} />
                <Route path="admin/blog/edit/:id" element={<BlogEditorPage />} />
                <Route path="admindash" element={<AdminDashboard />} />
                <Route path="settings" element={<SettingsPage />} />
                <Route path="*" element={<NotFoundPage />} />
              </Route>
              <Route path="/login" element={<LoginPage />} />
              <Route path="/under-construction" element={<UnderConstructionPage />} />
            </Routes>
          </Suspense>
        </ScreenErrorBoundary>
      </RouteGuard>
    </BrowserRouter>
  );
}
