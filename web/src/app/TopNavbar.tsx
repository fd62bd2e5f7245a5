import { lazy, Suspense } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { Alignment, Button, Navbar, NavbarDivider, NavbarGroup, NavbarHeading } from '@blueprintjs/core';
import { useAuth } from '../auth/auth-store';
import { useSettings } from '../settings/settings-store';
import { itemCount } from '../storefront/cart/cart-lines';
import { useCartLines } from '../storefront/cart/cart-store';
import { ThemeToggle } from '../common/ThemeToggle';

const links = [
  { to: '/shop', label: 'Shop', icon: 'shop' },
  { to: '/blog', label: 'Blog', icon: 'manual' },
  { to: '/cart', label: 'Cart', icon: 'shopping-cart' },
] as const;

/** The signed-in visitor's menus (and the admin's), loaded only for them: shoppers' first visit does without their code. */
const AdminMenu = lazy(() => import('./AccountMenus').then((m) => ({ default: m.AdminMenu })));
const UserMenu = lazy(() => import('./AccountMenus').then((m) => ({ default: m.UserMenu })));

export function TopNavbar() {
  const auth = useAuth();
  const { admin } = useSettings();
  const navigate = useNavigate();
  const location = useLocation();
  const inCart = itemCount(useCartLines());

  return (
    <Navbar className="top-navbar" fixedToTop={false}>
      <NavbarGroup align={Alignment.START}>
        <NavbarHeading className="top-navbar-heading">
          <Link to="/" className="brand">
            <img src="/favicon.svg" alt="" width={24} height={24} />
            <span className="brand-name">Art &amp; Song Cards</span>
          </Link>
        </NavbarHeading>
        <NavbarDivider className="hide-on-phone" />
        {links.map((link) => (
          <NavLink key={link.to} to={link.to} className={({ isActive }) => `nav-link${isActive ? ' active' : ''}`}>
            {({ isActive }) => (
              <Button
                variant="minimal"
                icon={link.icon}
                text={<span className="hide-on-phone">{link.label}</span>}
                endIcon={link.to === '/cart' && inCart > 0 ? <span className="cart-badge" aria-label={`${inCart} in cart`}>{inCart}</span> : undefined}
                aria-label={link.label}
                active={isActive}
                tabIndex={-1}
              />
            )}
          </NavLink>
        ))}
      </NavbarGroup>
      <NavbarGroup align={Alignment.END}>
        {(admin || auth.user?.role === 'staff') && auth.user && (
          <Suspense fallback={null}>
            <AdminMenu staff={!admin} />
          </Suspense>
        )}
        <ThemeToggle />
        {auth.user ? (
          <Suspense fallback={null}>
            <UserMenu user={auth.user} />
          </Suspense>        ) : (
          <Button variant="minimal" icon="log-in" text="Sign in" onClick={() => navigate('/login', { state: { from: location.pathname + location.search } })} />
        )}
      </NavbarGroup>
    </Navbar>
  );
}
