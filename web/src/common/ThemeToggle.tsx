import { Button, Tooltip } from '@blueprintjs/core';
import { useTheme } from './theme';

export function ThemeToggle() {
  const [theme, toggle] = useTheme();
  const label = theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <Tooltip content={label} placement="bottom">
      <Button variant="minimal" icon={theme === 'dark' ? 'flash' : 'moon'} aria-label={label} onClick={toggle} />
    </Tooltip>
  );
}
