import type { ReactElement } from 'react';
import { Tooltip } from '@blueprintjs/core';

/** The theme switch's tooltip: Blueprint's Tooltip, in a chunk of its own (see ThemeToggle). */
export default function ThemeTooltip({ content, open, children }: { content: string; open: boolean; children: ReactElement }) {
  return (
    <Tooltip content={content} placement="bottom" defaultIsOpen={open}>
      {children}
    </Tooltip>
  );
}
