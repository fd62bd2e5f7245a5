import { lazy, Suspense } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { Alignment, Button, Classes, Icon, Navbar, NavbarDivider, NavbarGroup, NavbarHeading } from '@blueprintjs/core';
import { useAuth } from '../auth/auth-store';
import { useSettings } from '../settings/settings-store';
import { useShop } from '../settings/shop-store';
import { itemCount } from '../storefront/cart/cart-lines';
import { useCartLines } from '../storefront/cart/cart-store';
import { ThemeToggle } from '../common/ThemeToggle';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';

const labels = defineMessages({
  shop: { id: 'nav.shop', defaultMessage: 'Shop' },
  blog: { id: 'nav.blog', defaultMessage: 'Blog' },
  cart: { id: 'nav.cart', defaultMessage: 'Cart' },
});

const links = [
  { to: '/shop', label: labels.shop, icon: 'shop' },
  { to: '/blog', label: labels.blog, icon: 'manual' },
  { to: '/cart', label: labels.cart, icon: 'shopping-cart' },
] as const;

/** The signed-in visitor's menus (and the admin's), loaded only for them: shoppers' first visit does without their code. */
const AdminMenu = lazy(() => import('./AccountMenus').then((m) => ({ default: m.AdminMenu })));
const UserMenu = lazy(() => import('./AccountMenus').then((m) => ({ default: m.UserMenu })));

export function TopNavbar() {
  const auth = useAuth();
  const { admin } = useSettings();
  const shop = useShop();
  const navigate = useNavigate();
  const location = useLocation();
  const inCart = itemCount(useCartLines());
  const intl = useIntl();

  return (
    // The page's banner: the brand, the shop's links (its main navigation) and the visitor's controls.
    <Navbar className="top-navbar" fixedToTop={false} role="banner">
      <NavbarGroup align={Alignment.START}>
        <NavbarHeading className="top-navbar-heading">
          <Link to="/" className="brand">
            {/* The owner's logo beside the name (the name is the link's text: the picture says nothing more). */}
            {shop.logo ? (
              <img className="brand-logo" src={`/api/${shop.logo.filePath}`} alt="" width={shop.logo.width && shop.logo.height ? Math.round((28 * shop.logo.width) / shop.logo.height) : undefined} height={28} />
            ) : (
              <img src="/favicon.svg" alt="" width={24} height={24} />
            )}
            <span className="brand-name">{shop.name}</span>
          </Link>
        </NavbarHeading>
        <NavbarDivider className="hide-on-phone" />
      </NavbarGroup>
      {/* Links that look like the navbar's buttons (one control each, nothing interactive inside); on a phone, words under the icons. */}
      <nav className={`${Classes.NAVBAR_GROUP} ${Classes.ALIGN_LEFT} top-navbar-links`} aria-label={intl.formatMessage(labels.shop)}>
        {links.map((link) => (
          <NavLink
            key={link.to}
            to={link.to}
            className={({ isActive }) => `${Classes.BUTTON} ${Classes.MINIMAL} nav-link${isActive ? ` ${Classes.ACTIVE} active` : ''}`}
          >
            <Icon icon={link.icon} aria-hidden />
            <span className="nav-link-label">{intl.formatMessage(link.label)}</span>
            {/* Named by what it shows ("Cart 2"), with the words a screen reader needs after it. */}
            {link.to === '/cart' && inCart > 0 && (
              <>
                <span className="cart-badge">{inCart}</span>
                <span className="visually-hidden"> <FormattedMessage id="nav.inCart" defaultMessage="in cart" /></span>
              </>
            )}
          </NavLink>
        ))}
      </nav>
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
          <Button variant="minimal" icon="log-in" text={intl.formatMessage({ id: 'nav.signIn', defaultMessage: 'Sign in' })} onClick={() => navigate('/login', { state: { from: location.pathname + location.search } })} />
        )}
      </NavbarGroup>
    </Navbar>
  );
}
