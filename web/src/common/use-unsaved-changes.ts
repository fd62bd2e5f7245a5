import { useCallback, useEffect, useRef } from 'react';
import { useBlocker, type Blocker } from 'react-router-dom';

/**
 * Guards unsaved work: in-app navigation is held for a confirmation, closing the tab asks the
 * browser's question. `allowNavigation` lets the page's own navigation through (after a save).
 */
export function useUnsavedChanges(dirty: boolean): { blocker: Blocker; allowNavigation: () => void } {
  const allowed = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (allowed.current) {
      allowed.current = false;
      return false;
    }
    return dirty && currentLocation.pathname !== nextLocation.pathname;
  });
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const allowNavigation = useCallback(() => {
    allowed.current = true;
  }, []);
  return { blocker, allowNavigation };
}
