import { useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { Alignment, Button, Menu, MenuDivider, MenuItem, Navbar, NavbarDivider, NavbarGroup, NavbarHeading, PopoverNext } from '@blueprintjs/core';
import { ChangePasswordDialog } from '../auth/ChangePasswordDialog';
import { useLogout } from '../auth/use-logout';
import { useAuth } from './auth-store';
import { itemCount } from '../storefront/cart/cart-lines';
import { useCartLines } from '../storefront/cart/cart-store';
import { ThemeToggle } from './ThemeToggle';

const links = [
  { to: '/shop', label: 'Shop', icon: 'shop' },
  { to: '/blog', label: 'Blog', icon: 'manual' },
  { to: '/cart', label: 'Cart', icon: 'shopping-cart' },
] as const;

export function TopNavbar() {
  const auth = useAuth();
  const navigate = useNavigate();
  const logout = useLogout();
  const [changingPassword, setChangingPassword] = useState(false);
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
        {auth.admin && auth.user && (
          <PopoverNext
            placement="bottom-end"
            content={
              <Menu>
                <MenuItem icon="dashboard" text="Admin console" onClick={() => navigate('/admindash')} />
                <MenuItem icon="edit" text="New blog post" onClick={() => navigate('/admin/blog/new')} />
                <MenuItem icon="manual" text="Blog posts and drafts" onClick={() => navigate('/blog')} />
              </Menu>
            }
          >
            <Button className="nav-menu-button" variant="minimal" icon="dashboard" endIcon="caret-down" text={<span className="hide-on-phone">Admin</span>} aria-label="Admin" />
          </PopoverNext>
        )}
        <ThemeToggle />
        {auth.user ? (
          <PopoverNext
            placement="bottom-end"
            content={
              <Menu>
                <MenuItem icon="user" text={auth.user.email ?? auth.user.username ?? 'Signed in'} disabled />
                <MenuDivider />
                <MenuItem icon="key" text="Change password" onClick={() => setChangingPassword(true)} />
                <MenuItem icon="log-out" text="Log out" onClick={() => void logout()} />
              </Menu>
            }
          >
            <Button className="nav-menu-button" variant="minimal" icon="user" endIcon="caret-down" text={<span className="hide-on-phone">{auth.user.username ?? 'Account'}</span>} aria-label="Account" />
          </PopoverNext>
        ) : (
          <Button variant="minimal" icon="log-in" text="Sign in" onClick={() => navigate('/login')} />
        )}
      </NavbarGroup>
      <ChangePasswordDialog isOpen={changingPassword} onClose={() => setChangingPassword(false)} />
    </Navbar>
  );
}
