import type { Services } from '../../../server/src/services.js';
import { badInput } from '../../../server/src/core/errors.js';
import { salesCsv, salesCsvName } from '../../../server/src/modules/orders/sales-export.js';
import { queryParam, withRestFields, type RouteDef } from '../route.js';

/** `days`: the last so many days, as digits (the service checks how many). */
function days(value: unknown): number | null {
  const text = queryParam(value);
  if (text === null) return null;
  if (!/^\d{1,4}$/.test(text)) throw badInput('days is a number of days.', 'days');
  return Number(text);
}

/** `by`: day (the default) or week. */
function by(value: unknown): 'DAY' | 'WEEK' {
  const text = queryParam(value)?.toLowerCase() ?? 'day';
  if (text !== 'day' && text !== 'week') throw badInput('by is day or week.', 'by');
  return text === 'day' ? 'DAY' : 'WEEK';
}

/**
 * The Sales view's export (contract section 16): `GET /api/admin/sales.csv?from=&to=&by=day|week&time_zone=`
 * (or `days=` for the last so many days; neither: the last 30), one line per day or week of the range.
 */
export function salesRoutes({ sales }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/sales.csv',
      access: 'staff',
      async handler(ctx, req, res) {
        const args = { timeZone: queryParam(req.query.time_zone), from: queryParam(req.query.from), to: queryParam(req.query.to), days: days(req.query.days), bucket: by(req.query.by) };
        const summary = await withRestFields(sales.summary(ctx, args, { topProducts: false }), { timeZone: 'time_zone', bucket: 'by' });
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        res.setHeader('Content-Disposition', `attachment; filename="${salesCsvName(summary)}"`);
        res.setHeader('Cache-Control', 'no-store');
        res.status(200).send(salesCsv(summary));
      },
    },
  ];
}
