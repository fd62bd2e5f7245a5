/**
 * Names in alphabetical order, capitals aside ("art" beside "Art"). Plain string comparison rather
 * than `localeCompare`: the first call of that builds the locale's collator, which costs a phone a
 * long moment in the middle of drawing the first screen. The server draws the same order.
 */
export function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
