/** Paths that stay reachable while the site is under construction. */
export const ALWAYS_OPEN = ['/login', '/under-construction', '/staff/accept', '/forgot-password', '/reset-password', '/verify-email', '/unsubscribe'];

export interface RouteAccess {
  requiresAuth: boolean;
  requiresAdmin: boolean;
}

/** Which routes need a signed-in user, and which an admin (the blog editor). */
export function accessFor(pathname: string): RouteAccess {
  const path = normalise(pathname);
  const adminOnly = path === '/admin/blog/new' || path.startsWith('/admin/blog/edit/');
  const signedIn = adminOnly || path === '/admindash' || path === '/admindash/promotions' || path === '/settings' || path === '/account' || path.startsWith('/account/');
  return { requiresAuth: signedIn, requiresAdmin: adminOnly };
}

export interface NavigationInput {
  pathname: string;
  underConstructionMode: boolean;
  signedIn: boolean;
  admin: boolean;
  /** A signed-in member of staff: like an admin, they see the shop while it is under construction. */
  staff?: boolean;
}

export type NavigationDecision = { kind: 'allow' } | { kind: 'redirect'; to: string };

/**
 * The route guard's rules, in order: under construction sends everyone but a signed-in admin to
 * /under-construction (except /login, /staff/accept and the notice itself); a route that needs
 * sign-in sends a visitor to /login; an admin-only route sends a signed-in non-admin home.
 */
export function decideNavigation({ pathname, underConstructionMode, signedIn, admin, staff = false }: NavigationInput): NavigationDecision {
  const path = normalise(pathname);
  if (underConstructionMode && !((admin || staff) && signedIn) && !ALWAYS_OPEN.includes(path)) {
    return { kind: 'redirect', to: '/under-construction' };
  }
  const access = accessFor(path);
  if (access.requiresAuth && !signedIn) return { kind: 'redirect', to: '/login' };
  if (access.requiresAdmin && !admin) return { kind: 'redirect', to: '/' };
  return { kind: 'allow' };
}

function normalise(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}
