import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { AnnouncementBar } from '../storefront/announcement/AnnouncementBar';
import { TopNavbar } from './TopNavbar';

/**
 * The page frame of the shop: the owner's announcement (when on), the top navigation bar over the
 * current screen. The navigation bar is a
 * Suspense boundary of its own: on a page the server drew, React hydrates it apart from the screen,
 * in a task of its own (a phone's main thread is not held for the whole page at once).
 */
export function Layout() {
  return (
    <div className="app-shell">
      <AnnouncementBar />
      <Suspense>
        <TopNavbar />
      </Suspense>
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
