import { useState, type ReactNode } from 'react';
import { Button, Menu, MenuItem } from '@blueprintjs/core';
import { type AdminView, type ConsoleRole, viewsFor } from './admin-views';

export const DRAWER_WIDTH = 256;
export const RAIL_WIDTH = 56;
const RAIL_KEY = 'adminMenuCollapsed';

/** The reader's last choice; without one, the rail on a phone (the drawer would crowd out the view). */
function initiallyCollapsed(): boolean {
  const stored = localStorage.getItem(RAIL_KEY);
  if (stored !== null) return stored === '1';
  return window.matchMedia?.('(max-width: 640px)').matches ?? false;
}

/** The permanent side menu ('Admin Menu') beside the selected view; it folds to an icon rail. */
export function AdminShell({ view, role, onSelect, tools, children }: { view: AdminView; role: ConsoleRole; onSelect: (view: AdminView) => void; tools?: ReactNode; children: ReactNode }) {
  const [collapsed, setCollapsed] = useState(initiallyCollapsed);
  const toggle = () => {
    localStorage.setItem(RAIL_KEY, collapsed ? '0' : '1');
    setCollapsed(!collapsed);
  };
  return (
    <div className="admin-shell">
      <nav className={`admin-drawer${collapsed ? ' collapsed' : ''}`} style={{ width: collapsed ? RAIL_WIDTH : DRAWER_WIDTH }} aria-label="Admin Menu">
        <div className="admin-drawer-header">
          {!collapsed && <span className="admin-drawer-title">Admin Menu</span>}
          {tools}
          <Button variant="minimal" icon={collapsed ? 'menu-open' : 'menu-closed'} aria-label={collapsed ? 'Expand the menu' : 'Collapse the menu'} onClick={toggle} />
        </div>
        <Menu className="admin-menu">
          {viewsFor(role).map((item) => (
            <MenuItem
              key={item.id}
              icon={item.icon}
              text={collapsed ? undefined : item.label}
              title={item.label}
              aria-label={item.label}
              active={view === item.id}
              onClick={() => onSelect(item.id)}
            />
          ))}
        </Menu>
      </nav>
      <section className="admin-content">{children}</section>
    </div>
  );
}
