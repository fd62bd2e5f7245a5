import type { ReactNode } from 'react';
import { OverlaysProvider, PortalProvider } from '@blueprintjs/core';

/**
 * Blueprint's portals and overlays: BlueprintProvider less its hotkeys. No screen of the shop binds
 * a hotkey, and the provider's hotkeys dialog brought Dialog, KeyCombo and their icons into every
 * page's first script.
 */
export function BlueprintContext({ children }: { children: ReactNode }) {
  return (
    <PortalProvider>
      <OverlaysProvider>{children}</OverlaysProvider>
    </PortalProvider>
  );
}
