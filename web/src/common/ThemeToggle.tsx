import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Button, Classes } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { useTheme } from './theme';

const ThemeTooltip = lazy(() => import('./ThemeTooltip'));

/**
 * The theme switch of every page's navbar, with its tooltip. Blueprint's Tooltip brings its popover,
 * overlay, transitions and floating-ui: a tenth of every page's script, for a hint a phone never
 * shows. The switch is drawn (on the server too) in the same target the tooltip wraps it in, and the
 * tooltip's code is loaded once the page is idle, or at once when a pointer comes over the switch;
 * while the switch has the focus it is not swapped (that would take the focus away), until it leaves.
 */
export function ThemeToggle() {
  const [theme, toggle] = useTheme();
  const intl = useIntl();
  const label = theme === 'dark' ? intl.formatMessage({ id: 'common.theme.light', defaultMessage: 'Switch to light theme' }) : intl.formatMessage({ id: 'common.theme.dark', defaultMessage: 'Switch to dark theme' });
  const [tooltip, setTooltip] = useState<'none' | 'idle' | 'hovered'>('none');
  const target = useRef<HTMLSpanElement>(null);
  const swap = (how: 'idle' | 'hovered') => {
    if (tooltip === 'none' && !target.current?.contains(document.activeElement)) setTooltip(how);
  };
  useEffect(() => {
    if (tooltip !== 'none') return;
    const whenIdle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1000));
    let cancelled = false;
    const start = () => whenIdle(() => void import('./ThemeTooltip').then(() => !cancelled && swap('idle')));
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener('load', start);
    };
  });
  const button = <Button variant="minimal" icon={theme === 'dark' ? 'flash' : 'moon'} aria-label={label} onClick={toggle} />;
  const bare = (
    <span ref={target} className={Classes.POPOVER_TARGET} onMouseEnter={() => swap('hovered')} onBlur={() => swap('idle')}>
      {button}
    </span>
  );
  if (tooltip === 'none') return bare;
  return (
    <Suspense fallback={bare}>
      <ThemeTooltip content={label} open={tooltip === 'hovered'}>
        {button}
      </ThemeTooltip>
    </Suspense>
  );
}
