import { Button, Tooltip } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { useTheme } from './theme';

export function ThemeToggle() {
  const [theme, toggle] = useTheme();
  const intl = useIntl();
  const label = theme === 'dark' ? intl.formatMessage({ id: 'common.theme.light', defaultMessage: 'Switch to light theme' }) : intl.formatMessage({ id: 'common.theme.dark', defaultMessage: 'Switch to dark theme' });
  return (
    <Tooltip content={label} placement="bottom">
      <Button variant="minimal" icon={theme === 'dark' ? 'flash' : 'moon'} aria-label={label} onClick={toggle} />
    </Tooltip>
  );
}
