/** Sales at a glance (filled in below). */
export function SalesScreen() {
  return null;
}
