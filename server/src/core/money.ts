/**
 * Exact money arithmetic on the two-decimal strings the database stores (numeric(12,2)). Amounts
 * become integer cents, which stay exact far beyond any total a shop can reach.
 */

export function toCents(amount: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) throw new Error(`Not a money amount: "${amount}"`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export const multiply = (amount: string, quantity: number): string => fromCents(toCents(amount) * quantity);

export const sum = (amounts: string[]): string => fromCents(amounts.reduce((total, amount) => total + toCents(amount), 0));
