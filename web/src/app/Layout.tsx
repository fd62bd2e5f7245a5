import { Outlet } from 'react-router-dom';
import { TopNavbar } from './TopNavbar';

/** The page frame of the shop: the top navigation bar over the current screen. */
export function Layout() {
  return (
    <div className="app-shell">
      <TopNavbar />
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
