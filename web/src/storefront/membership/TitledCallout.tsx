import type { ReactNode } from 'react';
import { Callout, Classes, type CalloutProps } from '@blueprintjs/core';

/**
 * A callout whose title is the page's next heading level (a Callout's own title is an h5, which
 * would skip levels under the page's h2s).
 */
export function TitledCallout({ title, level = 3, children, ...rest }: Omit<CalloutProps, 'title'> & { title: string; level?: 2 | 3; children?: ReactNode }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <Callout {...rest}>
      <Heading className={`${Classes.HEADING} membership-callout-title`}>{title}</Heading>
      {children}
    </Callout>
  );
}
