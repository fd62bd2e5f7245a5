import type { IconName } from '@blueprintjs/icons';

export type AdminView = 'media' | 'catalogue' | 'orders' | 'discounts' | 'sales' | 'settings';

/** The entries of the Admin Menu; Media Library is the default view. */
export const ADMIN_VIEWS: { id: AdminView; label: string; icon: IconName }[] = [
  { id: 'media', label: 'Media Library', icon: 'media' },
  { id: 'catalogue', label: 'Categories & Products', icon: 'diagram-tree' },
  { id: 'orders', label: 'Orders', icon: 'shopping-cart' },
  { id: 'discounts', label: 'Discounts', icon: 'tag' },
  { id: 'sales', label: 'Sales', icon: 'timeline-line-chart' },
  { id: 'settings', label: 'Settings', icon: 'cog' },
];
