import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import './cursor-pager.css';

/**
 * Pages of a cursor connection, one after another: the cursor of the page shown (`after`), where it
 * starts, and the steps back, forward and to the start (a new search or filter).
 */
export function useCursorPages(size: number) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return {
    after: cursors.at(-1) ?? null,
    start: (cursors.length - 1) * size,
    first: cursors.length === 1,
    back: () => setCursors((list) => list.slice(0, -1)),
    forward: (cursor: string | null) => setCursors((list) => [...list, cursor]),
    reset: () => setCursors([null]),
  };
}

/** "1–50 of 1,234" with Previous and Next under a list paged by cursors. */
export function CursorPager({ pages, shown, page }: { pages: ReturnType<typeof useCursorPages>; shown: number; page: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor?: string | null } } }) {
  return (
    <div className="cursor-pager">
      <span aria-live="polite">
        {pages.start + 1}–{pages.start + shown} of {page.totalCount.toLocaleString()}
      </span>
      <Button icon="chevron-left" aria-label="Previous page" disabled={pages.first} onClick={pages.back} />
      <Button icon="chevron-right" aria-label="Next page" disabled={!page.pageInfo.hasNextPage} onClick={() => pages.forward(page.pageInfo.endCursor ?? null)} />
    </div>
  );
}
