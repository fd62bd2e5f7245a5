import { useNavigate } from 'react-router-dom';
import { Button, Menu, MenuDivider, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useLogout } from '../auth/use-logout';
import type { TokenUser } from '../auth/token';

/**
 * The navbar's Admin menu: the console and, for admins, the blog editor. Both are English pages at
 * their one address, opened with a full page load (a German page's router would put them under /de).
 */
export function AdminMenu({ staff = false }: { staff?: boolean }) {
  const navigate = useNavigate();
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <Menu>
          <MenuItem icon="dashboard" text="Admin console" href="/admindash" />
          {!staff && <MenuItem icon="edit" text="New blog post" href="/admin/blog/new" />}
          {!staff && <MenuItem icon="manual" text="Blog posts and drafts" onClick={() => navigate('/blog')} />}
        </Menu>
      }
    >
      <Button className="nav-menu-button" variant="minimal" icon="dashboard" endIcon="caret-down" text={<span className="hide-on-phone">Admin</span>} aria-label="Admin" />
    </PopoverNext>
  );
}

/** The signed-in user's menu: who is signed in, their orders, address book and account settings, logging out. */
export function UserMenu({ user }: { user: TokenUser }) {
  const navigate = useNavigate();
  const logout = useLogout();
  return (
    <>
      <PopoverNext
        placement="bottom-end"
        content={
          <Menu>
            <MenuItem icon="user" text={user.email ?? user.username ?? 'Signed in'} disabled />
            <MenuDivider />
            <MenuItem icon="history" text="My orders" onClick={() => navigate('/account')} />
            <MenuItem icon="book" text="Address book" onClick={() => navigate('/account/contacts')} />
            <MenuItem icon="cog" text="Account settings" onClick={() => navigate('/account/settings')} />
            <MenuItem icon="log-out" text="Log out" onClick={() => void logout()} />
          </Menu>
        }
      >
        {/* Its name starts with what it shows (the username), so that it can be asked for by what one sees. */}
        <Button className="nav-menu-button" variant="minimal" icon="user" endIcon="caret-down" text={<span className="hide-on-phone">{user.username ?? 'Account'}</span>} aria-label={user.username ? `${user.username}: account` : 'Account'} />
      </PopoverNext>
    </>
  );
}
