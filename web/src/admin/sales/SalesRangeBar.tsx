import { FormGroup, SegmentedControl } from '@blueprintjs/core';
import { SALES_EARLIEST_DAY, SALES_PRESET_DAYS, addDays, type SalesBucketKind, type SalesRangeProblem } from '@rules';
import type { RangeChoice, SalesViewChange } from './sales-url';

const RANGE_OPTIONS = [...SALES_PRESET_DAYS.map((days) => ({ value: String(days), label: `${days} days` })), { value: 'custom', label: 'Custom' }];
const BUCKET_OPTIONS = [
  { value: 'DAY', label: 'By day' },
  { value: 'WEEK', label: 'By week' },
];

interface Props {
  choice: RangeChoice;
  bucket: SalesBucketKind;
  problem: SalesRangeProblem | null;
  today: string;
  /** The range last shown, where "Custom" starts from. */
  shown: { from: string; to: string } | null;
  onChange(changes: SalesViewChange): void;
}

/** The range (the last 7, 30, 90 or 365 days, or days from–to) and whether the bars are days or weeks. */
export function SalesRangeBar({ choice, bucket, problem, today, shown, onChange }: Props) {
  const custom = choice.kind === 'custom' ? choice : null;
  const pick = (value: string) => {
    if (value !== 'custom') onChange({ choice: { kind: 'last', days: Number(value) } });
    else if (!custom) onChange({ choice: { kind: 'custom', from: shown?.from ?? addDays(today, -29), to: shown?.to ?? today } });
  };
  const setDay = (key: 'from' | 'to', value: string) => onChange({ choice: { kind: 'custom', [key]: value } });
  return (
    <div className="sales-range-bar">
      <SegmentedControl aria-label="Range" className="sales-range" options={RANGE_OPTIONS} value={custom ? 'custom' : String(choice.kind === 'last' ? choice.days : '')} onValueChange={pick} />
      <SegmentedControl aria-label="Bars" options={BUCKET_OPTIONS} value={bucket} onValueChange={(value) => onChange({ bucket: value as SalesBucketKind })} />
      {custom && (
        <FormGroup className="sales-custom" intent={problem ? 'danger' : 'none'} helperText={problem?.message} label="Days" labelFor="sales-from" inline>
          <span className="sales-custom-days">
            <input
              id="sales-from"
              className={`bp6-input${problem?.field === 'from' ? ' bp6-intent-danger' : ''}`}
              type="date"
              aria-label="From"
              min={SALES_EARLIEST_DAY}
              max={custom.to || today}
              value={custom.from}
              onChange={(event) => setDay('from', event.currentTarget.value)}
            />
            <span aria-hidden="true">–</span>
            <input
              className={`bp6-input${problem?.field === 'to' ? ' bp6-intent-danger' : ''}`}
              type="date"
              aria-label="To"
              min={custom.from || SALES_EARLIEST_DAY}
              max={today}
              value={custom.to}
              onChange={(event) => setDay('to', event.currentTarget.value)}
            />
          </span>
        </FormGroup>
      )}
    </div>
  );
}
