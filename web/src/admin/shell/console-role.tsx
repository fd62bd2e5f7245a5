import { NonIdealState } from '@blueprintjs/core';
import { useAuth } from '../../auth/auth-store';
import { useSettings } from '../../settings/settings-store';
import type { ConsoleRole } from './admin-views';

/** Who is using the console: an admin, a staff member, or nobody it is for (null). The server decides what each may do. */
export function useConsoleRole(): ConsoleRole | null {
  const settings = useSettings();
  const { user } = useAuth();
  return settings.admin ? 'admin' : user?.role === 'staff' ? 'staff' : null;
}

/** What the console shows to anyone else. */
export function AdminsOnly() {
  return (
    <div className="coming-soon">
      <NonIdealState icon="lock" title="Admins only" description="The admin console is for the shop's administrators. Sign in with an admin account to use it." />
    </div>
  );
}
