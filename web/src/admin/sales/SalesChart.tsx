import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTheme } from '../../common/theme';

export interface SalesPoint {
  day: string;
  revenue: number;
  orders: number;
}

/** Blueprint's palette for each theme: text, grid, and the series (blue bars, green line). */
const PALETTE = {
  dark: { text: '#abb3bf', grid: '#383e47', tooltip: '#2f343c', border: '#404854', orders: '#4c90f0', revenue: '#72ca9b' },
  light: { text: '#5f6b7c', grid: '#dce0e5', tooltip: '#ffffff', border: '#c5cbd3', orders: '#2d72d2', revenue: '#238551' },
};

const shortDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dollars = (value: number) => `$${value.toLocaleString(undefined, { minimumFractionDigits: 0, maximumFractionDigits: 0 })}`;

/** Revenue (a line, left axis) and orders (bars, right axis) per day. */
export function SalesChart({ points }: { points: SalesPoint[] }) {
  const [theme] = useTheme();
  const c = PALETTE[theme];
  return (
    <ResponsiveContainer width="100%" height={340}>
      <ComposedChart data={points} margin={{ top: 12, right: 8, bottom: 0, left: 8 }}>
        <CartesianGrid stroke={c.grid} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" tickFormatter={shortDay} tick={{ fill: c.text, fontSize: 12 }} stroke={c.grid} interval="preserveStartEnd" minTickGap={16} />
        <YAxis yAxisId="revenue" tickFormatter={dollars} tick={{ fill: c.text, fontSize: 12 }} stroke={c.grid} width={64} allowDecimals={false} />
        <YAxis yAxisId="orders" orientation="right" tick={{ fill: c.text, fontSize: 12 }} stroke={c.grid} width={40} allowDecimals={false} />
        <Tooltip
          contentStyle={{ background: c.tooltip, border: `1px solid ${c.border}`, borderRadius: 4, color: c.text }}
          labelStyle={{ color: c.text }}
          cursor={{ fill: theme === 'dark' ? 'rgba(255,255,255,0.06)' : 'rgba(0,0,0,0.05)' }}
          labelFormatter={(label) => shortDay(String(label))}
          formatter={(value, name) => (name === 'Revenue' ? [`$${Number(value).toFixed(2)}`, name] : [value, name])}
        />
        <Legend wrapperStyle={{ color: c.text, fontSize: 13 }} />
        <Bar yAxisId="orders" dataKey="orders" name="Orders" fill={c.orders} radius={[3, 3, 0, 0]} maxBarSize={18} isAnimationActive={false} />
        <Line yAxisId="revenue" dataKey="revenue" name="Revenue" type="monotone" stroke={c.revenue} strokeWidth={2} dot={false} activeDot={{ r: 4 }} isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
