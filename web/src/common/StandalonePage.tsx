import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useShop } from '../settings/shop-store';
import { ThemeToggle } from './ThemeToggle';

/** The frame of the pages shown without the shop's navigation (sign-in, the maintenance notice). */
export function StandalonePage({ children, brandLinksHome = true }: { children: ReactNode; brandLinksHome?: boolean }) {
  const { name } = useShop();
  const brand = (
    <>
      <img src="/favicon.svg" alt="" width={28} height={28} />
      <span>{name}</span>
    </>
  );
  return (
    <div className="auth-page">
      <header className="auth-page-top">
        {brandLinksHome ? (
          <Link to="/" className="brand">
            {brand}
          </Link>
        ) : (
          <span className="brand">{brand}</span>
        )}
        <ThemeToggle />
      </header>
      <main className="auth-page-main">{children}</main>
    </div>
  );
}
