import { useCallback } from 'react';
import { SALES_DEFAULT_DAYS, dayIn, SALES_PRESET_DAYS, isRangeProblem, salesRange, type SalesBucketKind, type SalesRangeProblem } from '@rules';
import { useUrlParams } from '../../common/url-params';

export type RangeChoice = { kind: 'last'; days: number } | { kind: 'custom'; from: string; to: string };

/** A change of the view: a range (of a custom one, the days given), the bars, or both. */
export interface SalesViewChange {
  choice?: { kind: 'last'; days: number } | { kind: 'custom'; from?: string; to?: string };
  bucket?: SalesBucketKind;
}

export interface SalesView {
  choice: RangeChoice;
  bucket: SalesBucketKind;
  /** What is wrong with a custom range as typed (nothing is asked of the server then). */
  problem: SalesRangeProblem | null;
}

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The range as the address says: `?range=90` (7, 30, 90 or 365), `?from=&to=` for days of one's own, `&by=week`. */
export function readSalesView(params: URLSearchParams, today: string): SalesView {
  const bucket = params.get('by') === 'week' ? 'WEEK' : 'DAY';
  if (params.has('from') || params.has('to')) {
    const choice = { kind: 'custom' as const, from: params.get('from') ?? '', to: params.get('to') ?? '' };
    const range = salesRange(choice, today);
    return { choice, bucket, problem: isRangeProblem(range) ? range : null };
  }
  const days = Number(params.get('range'));
  return { choice: { kind: 'last', days: (SALES_PRESET_DAYS as readonly number[]).includes(days) ? days : SALES_DEFAULT_DAYS }, bucket, problem: null };
}

/** The Sales view's range, kept in the address so that a reload or a shared link shows the same. */
export function useSalesView(): [SalesView, (changes: SalesViewChange) => void] {
  const [params, changeParams] = useUrlParams();
  const view = readSalesView(params, dayIn(new Date(), browserTimeZone()));
  const change = useCallback(
    ({ choice, bucket }: SalesViewChange) => {
      const next: Record<string, string | null> = {};
      if (choice?.kind === 'last') Object.assign(next, { range: choice.days === SALES_DEFAULT_DAYS ? null : String(choice.days), from: null, to: null });
      // Only the day changed is written: the other is read from the address as it is then (two quick changes keep both).
      if (choice?.kind === 'custom') Object.assign(next, { range: null }, choice.from !== undefined ? { from: choice.from } : {}, choice.to !== undefined ? { to: choice.to } : {});
      if (bucket) next.by = bucket === 'WEEK' ? 'week' : null;
      changeParams(next);
    },
    [changeParams],
  );
  return [view, change];
}
