import { useHydrated } from '../common/hydration';
import { formatDate } from './format-date';

/** A post's date in the reader's locale and time zone (in UTC while a server-drawn page hydrates). */
export function PostDate({ iso }: { iso: string | null | undefined }) {
  const hydrated = useHydrated();
  return <time dateTime={iso ?? undefined}>{formatDate(iso, { stable: !hydrated })}</time>;
}
