import { csvNumber, csvText, type CsvRecord } from '../../core/csv.js';
import type { SalesSummary } from './sales.service.js';

/** The header of the sales export: one line per day or week of the range, its figures as the totals count them. */
export const SALES_CSV_COLUMNS = ['period_start', 'period_end', 'gross', 'refunds', 'net', 'orders', 'average_order', 'cards_sent', 'cards_opened'] as const;

type SalesCsvRow = CsvRecord<(typeof SALES_CSV_COLUMNS)[number]>;

/** The export of a summary's periods, oldest first. */
export function salesCsv(summary: Pick<SalesSummary, 'periods'>): string {
  const rows: SalesCsvRow[] = summary.periods.map((p) => ({
    period_start: p.from,
    period_end: p.to,
    gross: csvNumber(p.gross),
    refunds: csvNumber(p.refunds),
    net: csvNumber(p.net),
    orders: p.orders,
    average_order: csvNumber(p.averageOrder),
    cards_sent: p.cardsSent,
    cards_opened: p.cardsOpened,
  }));
  return csvText(SALES_CSV_COLUMNS, rows);
}

/** The file name the export suggests: its range and how it is grouped. */
export const salesCsvName = (summary: Pick<SalesSummary, 'from' | 'to' | 'bucket'>) => `sales-${summary.from}-to-${summary.to}-by-${summary.bucket.toLowerCase()}.csv`;
