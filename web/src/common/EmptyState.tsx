import { Classes, NonIdealState, type NonIdealStateProps } from '@blueprintjs/core';
import './empty-state.css';

/**
 * Blueprint's NonIdealState with its title as a heading of the page's outline: `h2` under the page's
 * h1 (Blueprint's is always an h4, which skips levels), or `h1` where it is all the page says.
 */
export function EmptyState({ title, description, level = 2, ...rest }: Omit<NonIdealStateProps, 'title'> & { title: string; level?: 1 | 2 }) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <NonIdealState
      {...rest}
      description={
        <div>
          <Heading className={`${Classes.HEADING} empty-state-title`}>{title}</Heading>
          {description && <div>{description}</div>}
        </div>
      }
    />
  );
}
