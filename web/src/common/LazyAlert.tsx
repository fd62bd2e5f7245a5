import { lazy, Suspense, useRef, type ComponentProps } from 'react';
import type { Alert } from '@blueprintjs/core';

const BlueprintAlert = lazy(() => import('./alert-module'));

/**
 * Blueprint's Alert, its code (the alert, dialog and overlay: some 7 kB as sent) loaded the first
 * time it opens: until then a closed Alert draws nothing, and a page that may ask for a
 * confirmation does not fetch it with its first visit. Once opened it stays, to close as it does.
 */
export function LazyAlert(props: ComponentProps<typeof Alert>) {
  const opened = useRef(false);
  opened.current ||= Boolean(props.isOpen);
  if (!opened.current) return null;
  return (
    <Suspense fallback={null}>
      <BlueprintAlert {...props} />
    </Suspense>
  );
}
