import { describe, expect, it } from 'vitest';
import { accessFor, decideNavigation, type NavigationInput } from '../../web/src/app/route-guard.js';

const visitor = { underConstructionMode: false, signedIn: false, admin: false };
const customer = { underConstructionMode: false, signedIn: true, admin: false };
const admin = { underConstructionMode: false, signedIn: true, admin: true };
const decide = (pathname: string, who: Omit<NavigationInput, 'pathname'>) => decideNavigation({ pathname, ...who });

const PUBLIC = ['/', '/shop', '/product/7', '/payments', '/cart', '/order-confirmation/0b6e', '/blog', '/blog/hello', '/login', '/under-construction'];

describe('the route guard', () => {
  it.each(PUBLIC)('lets anyone open the public route %s', (path) => {
    expect(decide(path, visitor)).toEqual({ kind: 'allow' });
  });

  it.each(['/admindash', '/admindash/promotions', '/settings', '/admin/blog/new', '/admin/blog/edit/3', '/settings/'])('sends a visitor from %s to /login', (path) => {
    expect(decide(path, visitor)).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('lets any signed-in user open /admindash and /settings', () => {
    expect(decide('/admindash', customer)).toEqual({ kind: 'allow' });
    expect(decide('/settings', customer)).toEqual({ kind: 'allow' });
  });

  it('keeps the blog editor to admins', () => {
    expect(decide('/admin/blog/new', customer)).toEqual({ kind: 'redirect', to: '/' });
    expect(decide('/admin/blog/edit/3', customer)).toEqual({ kind: 'redirect', to: '/' });
    expect(decide('/admin/blog/new', admin)).toEqual({ kind: 'allow' });
    expect(accessFor('/admin/blog/edit/3')).toEqual({ requiresAuth: true, requiresAdmin: true });
  });

  describe('under construction', () => {
    const on = <T extends object>(who: T) => ({ ...who, underConstructionMode: true });

    it.each(['/', '/shop', '/cart', '/blog', '/admindash', '/settings', '/no-such-page'])('sends visitors and customers from %s to /under-construction', (path) => {
      expect(decide(path, on(visitor))).toEqual({ kind: 'redirect', to: '/under-construction' });
      expect(decide(path, on(customer))).toEqual({ kind: 'redirect', to: '/under-construction' });
    });

    it('lets staff in as admins are (the console, the shop), but not into the blog editor; /staff/accept is open to anyone', () => {
      const staff = on({ ...customer, staff: true });
      expect(decide('/admindash', staff)).toEqual({ kind: 'allow' });
      expect(decide('/shop', staff)).toEqual({ kind: 'allow' });
      expect(decide('/admin/blog/new', staff)).toEqual({ kind: 'redirect', to: '/' });
      expect(decide('/staff/accept', on(visitor))).toEqual({ kind: 'allow' });
    });

    it('keeps /login and /under-construction open', () => {
      expect(decide('/login', on(visitor))).toEqual({ kind: 'allow' });
      expect(decide('/under-construction', on(visitor))).toEqual({ kind: 'allow' });
    });

    it('lets only an admin who is signed in through', () => {
      expect(decide('/shop', on(admin))).toEqual({ kind: 'allow' });
      // An admin flag without a signed-in user (a stale answer) is not enough.
      expect(decide('/shop', on({ signedIn: false, admin: true }))).toEqual({ kind: 'redirect', to: '/under-construction' });
    });
  });
});
