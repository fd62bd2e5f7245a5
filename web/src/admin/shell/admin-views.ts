import type { IconName } from '@blueprintjs/icons';

export type AdminView = 'media' | 'catalogue' | 'orders' | 'settings';

/** The entries of the Admin Menu; Media Library is the default view. */
export const ADMIN_VIEWS: { id: AdminView; label: string; icon: IconName }[] = [
  { id: 'media', label: 'Media Library', icon: 'media' },
  { id: 'catalogue', label: 'Categories & Products', icon: 'diagram-tree' },
  { id: 'orders', label: 'Orders', icon: 'shopping-cart' },
  { id: 'settings', label: 'Settings', icon: 'cog' },
];
