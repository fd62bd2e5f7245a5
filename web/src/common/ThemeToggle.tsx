import { useEffect, useRef, useState, type ComponentType } from 'react';
import { Button, Classes } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { useTheme } from './theme';
import type ThemeTooltipType from './ThemeTooltip';

/**
 * The theme switch of every page's navbar, with its tooltip. Blueprint's Tooltip brings its popover,
 * overlay, transitions and floating-ui: a tenth of every page's script, for a hint a phone never
 * shows. The switch is drawn (on the server too) in the same target the tooltip wraps it in, and the
 * tooltip's code is loaded the first time a pointer comes over the switch or it takes the focus;
 * the tooltip then opens as it would have, and the focus stays on the switch.
 */
export function ThemeToggle() {
  const [theme, toggle] = useTheme();
  const intl = useIntl();
  const label = theme === 'dark' ? intl.formatMessage({ id: 'common.theme.light', defaultMessage: 'Switch to light theme' }) : intl.formatMessage({ id: 'common.theme.dark', defaultMessage: 'Switch to dark theme' });
  const [tooltip, setTooltip] = useState<{ Tooltip: ComponentType<Parameters<typeof ThemeTooltipType>[0]>; open: boolean; focused: boolean } | null>(null);
  const loading = useRef(false);
  const hovered = useRef(false);
  const button = useRef<HTMLButtonElement>(null);
  const load = () => {
    if (loading.current) return;
    loading.current = true;
    void import('./ThemeTooltip').then(({ default: Tooltip }) => {
      // Open if the pointer or the focus is still on the switch, as the tooltip would be by now.
      const focused = document.activeElement === button.current;
      setTooltip({ Tooltip, open: hovered.current || focused, focused });
    });
  };
  useEffect(() => {
    // The switch drawn again inside the tooltip: the focus it had goes with it.
    if (tooltip?.focused) button.current?.focus();
  }, [tooltip]);
  const toggleButton = <Button ref={button} variant="minimal" icon={theme === 'dark' ? 'flash' : 'moon'} aria-label={label} onClick={toggle} />;
  if (!tooltip) {
    return (
      <span
        className={Classes.POPOVER_TARGET}
        onMouseEnter={() => {
          hovered.current = true;
          load();
        }}
        onMouseLeave={() => (hovered.current = false)}
        onFocus={load}
      >
        {toggleButton}
      </span>
    );
  }
  return (
    <tooltip.Tooltip content={label} open={tooltip.open}>
      {toggleButton}
    </tooltip.Tooltip>
  );
}
