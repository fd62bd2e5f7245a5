import type { IconName } from '@blueprintjs/icons';

export type AdminView = 'media' | 'catalogue' | 'products' | 'orders' | 'customers' | 'discounts' | 'gift-cards' | 'memberships' | 'promotions' | 'sales' | 'email' | 'staff' | 'audit' | 'api-keys' | 'webhooks' | 'settings';

/** The entries of the Admin Menu; `staff` marks those the staff role may use (the server decides, this only hides). */
export const ADMIN_VIEWS: { id: AdminView; label: string; icon: IconName; staff?: boolean; path?: string }[] = [
  { id: 'media', label: 'Media Library', icon: 'media' },
  { id: 'catalogue', label: 'Categories & Products', icon: 'diagram-tree' },
  { id: 'products', label: 'Products', icon: 'box' },
  { id: 'orders', label: 'Orders', icon: 'shopping-cart', staff: true },
  { id: 'customers', label: 'Customers', icon: 'people', staff: true },
  { id: 'discounts', label: 'Discounts', icon: 'tag' },
  { id: 'gift-cards', label: 'Gift cards', icon: 'credit-card' },
  { id: 'memberships', label: 'Memberships', icon: 'crown' },
  { id: 'promotions', label: 'Sales & promotions', icon: 'percentage', path: '/admindash/promotions' },
  { id: 'sales', label: 'Sales', icon: 'timeline-line-chart', staff: true },
  { id: 'email', label: 'E-mail', icon: 'envelope' },
  { id: 'staff', label: 'Staff', icon: 'id-number' },
  { id: 'audit', label: 'Audit log', icon: 'history' },
  { id: 'api-keys', label: 'API keys', icon: 'key' },
  { id: 'webhooks', label: 'Webhooks', icon: 'send-message' },
  { id: 'settings', label: 'Settings', icon: 'cog' },
];

export type ConsoleRole = 'admin' | 'staff';

/** The views a role sees, in menu order; the first is where the console opens. */
export const viewsFor = (role: ConsoleRole) => ADMIN_VIEWS.filter((view) => role === 'admin' || view.staff);

/** A view's address: its own path when it has one (`/admindash/promotions`), else `/admindash?view=…` (the role's first view is `/admindash`). */
export function viewAddress(view: AdminView, role: ConsoleRole, params: Record<string, string> = {}): string {
  const entry = ADMIN_VIEWS.find((item) => item.id === view);
  const query = new URLSearchParams(entry?.path || view === viewsFor(role)[0]?.id ? params : { view, ...params }).toString();
  return `${entry?.path ?? '/admindash'}${query ? `?${query}` : ''}`;
}

/** The view a path of its own shows (`/admindash/promotions`), if any. */
export const viewAtPath = (pathname: string): AdminView | undefined => ADMIN_VIEWS.find((item) => item.path && pathname.replace(/\/+$/, '') === item.path)?.id;
