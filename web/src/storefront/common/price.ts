/** A price from the shop ("12.5" or "12.50") as shoppers read it: "$12.50". */
export function formatPrice(amount: string | number): string {
  const value = typeof amount === 'number' ? amount : Number(amount);
  return `$${Number.isFinite(value) ? value.toFixed(2) : amount}`;
}
