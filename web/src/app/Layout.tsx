import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { FormattedMessage } from 'react-intl';
import { AnnouncementBar } from '../storefront/announcement/AnnouncementBar';
import { TopNavbar } from './TopNavbar';
import { LanguageSwitch } from './LanguageSwitch';

/** The console and the editors: screens of their own, without the shop's footer. */
const CONSOLE = /^\/(admindash|admin|settings)(\/|$)/;

/**
 * The page frame of the shop: the owner's announcement (when on), the top navigation bar over the
 * current screen, and under a shop page the footer's links and its languages. The navigation bar is a
 * Suspense boundary of its own: on a page the server drew, React hydrates it apart from the screen,
 * in a task of its own (a phone's main thread is not held for the whole page at once).
 */
export function Layout() {
  const { pathname } = useLocation();
  return (
    <div className="app-shell">
      <AnnouncementBar />
      <Suspense>
        <TopNavbar />
      </Suspense>
      <main className="app-main">
        <Outlet />
      </main>
      {!CONSOLE.test(pathname) && (
        <footer className="site-footer">
          <Link to="/membership">
            <FormattedMessage id="footer.membership" defaultMessage="Membership" />
          </Link>
          <Link to="/gift-cards">
            <FormattedMessage id="footer.giftCardBalance" defaultMessage="Gift card balance" />
          </Link>
          <Link to="/developers">
            <FormattedMessage id="footer.developers" defaultMessage="Developers" />
          </Link>
          <LanguageSwitch />
        </footer>
      )}
    </div>
  );
}
