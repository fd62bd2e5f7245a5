import { Icon } from '@blueprintjs/core';
import './sortable-header.css';

export interface SortState<K extends string> {
  key: K;
  descending: boolean;
}

/**
 * A table's column header that sorts by its column: a click sorts by it (in the column's natural
 * direction first), a second click turns the order round. `aria-sort` tells assistive technology.
 */
export function SortableHeader<K extends string>({ label, column, sort, onSort, numeric = false, firstDescending = false }: { label: string; column: K; sort: SortState<K>; onSort: (next: SortState<K>) => void; numeric?: boolean; firstDescending?: boolean }) {
  const active = sort.key === column;
  return (
    <th aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'} className={numeric ? 'sortable-th numeric' : 'sortable-th'}>
      <button type="button" className={`sortable-header${active ? ' active' : ''}`} onClick={() => onSort({ key: column, descending: active ? !sort.descending : firstDescending })}>
        <span>{label}</span>
        <Icon icon={active ? (sort.descending ? 'chevron-down' : 'chevron-up') : 'double-caret-vertical'} size={12} className="sortable-icon" />
      </button>
    </th>
  );
}

/** Sorts rows on the page itself (short lists that arrive whole). */
export function sortRows<T, K extends string>(rows: readonly T[], sort: SortState<K>, valueOf: (row: T, key: K) => string | number | null): T[] {
  const sign = sort.descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = valueOf(a, sort.key);
    const y = valueOf(b, sort.key);
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * sign;
  });
}
