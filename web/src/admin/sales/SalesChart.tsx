import { useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import type { SalesBucket } from '../../apollo/generated/graphql';
import { axisMoney, dayRange, money, shortDay } from './sales-format';

export interface ChartPeriod {
  from: string;
  to: string;
  net: string;
  gross: string;
  refunds: string;
  orders: number;
}

const HEIGHT = 240;
const PAD = { top: 10, right: 8, bottom: 26, left: 52 };

/** A round step for about `lines` grid lines up to `max`: 1, 2, 2.5 or 5 times a power of ten. */
function niceStep(max: number, lines: number): number {
  const raw = max / lines;
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
}

/** The width its box has, followed as the window changes. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    setWidth(box.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * Net revenue per day or per week as bars (plain SVG: a bar per period needs no chart library). A
 * week the range cuts short is drawn lighter. Pointing at a bar tells its figures; the screen also
 * offers the same figures as a table for those who cannot see the bars.
 */
export function SalesChart({ periods, bucket }: { periods: ChartPeriod[]; bucket: SalesBucket }) {
  const [ref, width] = useWidth();
  const [hover, setHover] = useState<number | null>(null);
  const values = periods.map((p) => Number(p.net));
  const step = niceStep(Math.max(...values, 1), 4);
  const top = Math.max(step, Math.ceil(Math.max(...values, 0) / step) * step);
  const plotWidth = Math.max(0, width - PAD.left - PAD.right);
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = periods.length ? plotWidth / periods.length : 0;
  const gap = Math.min(6, slot * 0.25);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  // As many day labels as fit, about 64 px apart.
  const every = Math.max(1, Math.ceil(periods.length / Math.max(1, Math.floor(plotWidth / 64))));
  const partial = (p: ChartPeriod) => bucket === 'WEEK' && (Date.parse(p.to) - Date.parse(p.from)) / 86_400_000 < 6;
  // A few bars stay bars (at most 56 px wide, centred in their slot) rather than blocks.
  const barWidth = Math.max(1, Math.min(slot - gap, 56));
  const unit = bucket === 'WEEK' ? 'week' : 'day';
  const best = values.indexOf(Math.max(...values));
  const total = values.reduce((sum, v) => sum + v, 0);
  const summary = periods.length
    ? `Net revenue by ${unit}, ${periods.length} ${unit}s from ${dayRange(periods[0]!.from, periods.at(-1)!.to)}: ${money(total)} in all; the best ${unit} ${dayRange(periods[best]!.from, periods[best]!.to)} with ${money(values[best]!)}.`
    : 'No days to show.';

  const point = (event: MouseEvent<SVGSVGElement>) => {
    const x = event.clientX - event.currentTarget.getBoundingClientRect().left - PAD.left;
    const index = Math.floor(x / slot);
    setHover(index >= 0 && index < periods.length ? index : null);
  };
  const shown = hover === null ? null : periods[hover]!;

  return (
    <div className="sales-chart-box" ref={ref}>
      {width > 0 && (
        <svg width={width} height={HEIGHT} role="img" aria-label={summary} onMouseMove={point} onMouseLeave={() => setHover(null)}>
          {ticks.map((tick) => (
            <g key={tick}>
              <line className="sales-grid" x1={PAD.left} x2={width - PAD.right} y1={y(tick)} y2={y(tick)} />
              <text className="sales-axis" x={PAD.left - 8} y={y(tick)} dy="0.32em" textAnchor="end">
                {axisMoney(tick)}
              </text>
            </g>
          ))}
          {periods.map((p, i) => {
            const value = values[i]!;
            const x = PAD.left + i * slot + (slot - barWidth) / 2;
            return (
              <rect
                key={p.from}
                className={`sales-bar${partial(p) ? ' sales-bar-partial' : ''}${hover === i ? ' sales-bar-hover' : ''}`}
                x={x}
                y={y(value)}
                width={barWidth}
                height={Math.max(value > 0 ? 1 : 0, PAD.top + plotHeight - y(value))}
                rx={slot > 8 ? 2 : 0}
              />
            );
          })}
          {periods.map((p, i) =>
            i % every === 0 ? (
              <text key={p.from} className="sales-axis" x={PAD.left + i * slot + slot / 2} y={HEIGHT - 8} textAnchor={i === 0 && slot < 32 ? 'start' : 'middle'}>
                {shortDay(p.from)}
              </text>
            ) : null,
          )}
        </svg>
      )}
      {periods.some(partial) && <p className="sales-chart-note sales-muted">Fainter bars are weeks the range cuts short.</p>}
      {shown && (
        <div className="sales-tip" style={{ left: Math.min(Math.max(PAD.left + hover! * slot + slot / 2, 90), width - 90) }} aria-hidden="true">
          <strong>{dayRange(shown.from, shown.to)}</strong>
          {partial(shown) && <span className="sales-tip-muted"> (part of a week)</span>}
          <div>Net {money(shown.net)}</div>
          <div className="sales-tip-muted">
            Gross {money(shown.gross)} · refunds {money(shown.refunds)} · {shown.orders} {shown.orders === 1 ? 'order' : 'orders'}
          </div>
        </div>
      )}
    </div>
  );
}
