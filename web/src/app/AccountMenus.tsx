import { useNavigate } from 'react-router-dom';
import { Button, Menu, MenuDivider, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useLogout } from '../auth/use-logout';
import type { TokenUser } from '../auth/token';
import { useIntl } from 'react-intl';

/**
 * The navbar's Admin menu: the console and, for admins, the blog editor. Both are English pages at
 * their one address, opened with a full page load (a German page's router would put them under /de).
 */
export function AdminMenu({ staff = false }: { staff?: boolean }) {
  const navigate = useNavigate();
  const intl = useIntl();
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <Menu>
          <MenuItem icon="dashboard" text={intl.formatMessage({ id: 'account.menu.adminConsole', defaultMessage: 'Admin console' })} href="/admindash" />
          {!staff && <MenuItem icon="edit" text={intl.formatMessage({ id: 'account.menu.newBlogPost', defaultMessage: 'New blog post' })} href="/admin/blog/new" />}
          {!staff && <MenuItem icon="manual" text={intl.formatMessage({ id: 'account.menu.blogPosts', defaultMessage: 'Blog posts and drafts' })} onClick={() => navigate('/blog')} />}
        </Menu>
      }
    >
      <Button className="nav-menu-button" variant="minimal" icon="dashboard" endIcon="caret-down" text={<span className="hide-on-phone">{intl.formatMessage({ id: 'account.menu.admin', defaultMessage: 'Admin' })}</span>} aria-label={intl.formatMessage({ id: 'account.menu.admin', defaultMessage: 'Admin' })} />
    </PopoverNext>
  );
}

/** The signed-in user's menu: who is signed in, their orders, address book and account settings, logging out. */
export function UserMenu({ user }: { user: TokenUser }) {
  const navigate = useNavigate();
  const logout = useLogout();
  const intl = useIntl();
  const account = intl.formatMessage({ id: 'account.menu.account', defaultMessage: 'Account' });
  return (
    <>
      <PopoverNext
        placement="bottom-end"
        content={
          <Menu>
            <MenuItem icon="user" text={user.email ?? user.username ?? intl.formatMessage({ id: 'account.menu.signedIn', defaultMessage: 'Signed in' })} disabled />
            <MenuDivider />
            <MenuItem icon="history" text={intl.formatMessage({ id: 'account.menu.orders', defaultMessage: 'My orders' })} onClick={() => navigate('/account')} />
            <MenuItem icon="book" text={intl.formatMessage({ id: 'account.menu.addressBook', defaultMessage: 'Address book' })} onClick={() => navigate('/account/contacts')} />
            <MenuItem icon="cog" text={intl.formatMessage({ id: 'account.menu.settings', defaultMessage: 'Account settings' })} onClick={() => navigate('/account/settings')} />
            <MenuItem icon="log-out" text={intl.formatMessage({ id: 'account.menu.logOut', defaultMessage: 'Log out' })} onClick={() => void logout()} />
          </Menu>
        }
      >
        {/* Its name starts with what it shows (the username), so that it can be asked for by what one sees. */}
        <Button className="nav-menu-button" variant="minimal" icon="user" endIcon="caret-down" text={<span className="hide-on-phone">{user.username ?? account}</span>} aria-label={user.username ? intl.formatMessage({ id: 'account.menu.userAccount', defaultMessage: '{username}: account' }, { username: user.username }) : account} />
      </PopoverNext>
    </>
  );
}
