import { lazy, Suspense, type ComponentProps } from 'react';
import { Spinner } from '@blueprintjs/core';
import type { GroupCardPanel as Panel } from './GroupCardPanel';

/** The panel's code (its dialogs and alert) loads only where an order has a group card: other orders' pages stay as light as they were. */
const GroupCardPanel = lazy(() => import('./GroupCardPanel').then((module) => ({ default: module.GroupCardPanel })));

/** A group card's panel for its purchaser (see GroupCardPanel), loaded when first shown. */
export function GroupCardSection(props: ComponentProps<typeof Panel>) {
  return (
    <Suspense fallback={<Spinner size={20} />}>
      <GroupCardPanel {...props} />
    </Suspense>
  );
}
