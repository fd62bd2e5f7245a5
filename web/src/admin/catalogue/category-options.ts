import { useMemo } from 'react';
import { useQuery } from '@apollo/client/react';
import { CategoriesQuery } from './catalogue-operations';

/** Every category by its path ("Holidays › Christmas"), in tree order, for selects. */
export function useCategoryOptions(): { id: number; label: string }[] {
  const categories = useQuery(CategoriesQuery);
  return useMemo(() => {
    const list = categories.data?.categories ?? [];
    const byId = new Map(list.map((c) => [c.id, c]));
    const path = (id: number): string => {
      const c = byId.get(id);
      return c ? (c.parentId && byId.has(c.parentId) ? `${path(c.parentId)} › ${c.name}` : c.name) : '';
    };
    return list.map((c) => ({ id: c.id, label: path(c.id) })).sort((a, b) => a.label.localeCompare(b.label));
  }, [categories.data]);
}
