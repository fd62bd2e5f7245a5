import { HTMLSelect } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { compareNames } from '../../common/compare-names';
import { buildTree, type TreeNode } from '../../common/tree';

interface NavCategory {
  id: number;
  name: string;
  parentId?: number | null;
}

/** The category tree as links (a select on a phone); `null` is every category. */
export function CategoryNav({ categories, selected, onSelect }: { categories: readonly NavCategory[]; selected: number | null; onSelect: (id: number | null) => void }) {
  const intl = useIntl();
  const everything = intl.formatMessage({ id: 'shop.categories.everything', defaultMessage: 'Everything' });
  const tree = buildTree(categories, (a, b) => compareNames(a.name, b.name));
  const flat: { id: number; label: string }[] = [];
  const walk = (nodes: TreeNode<NavCategory>[], depth: number) =>
    nodes.forEach((node) => {
      flat.push({ id: node.id, label: `${'\u00a0\u00a0'.repeat(depth)}${node.name}` });
      walk(node.children, depth + 1);
    });
  walk(tree, 0);

  const item = (node: TreeNode<NavCategory>) => (
    <li key={node.id}>
      <button type="button" className={`category-link${selected === node.id ? ' active' : ''}`} aria-current={selected === node.id ? 'page' : undefined} onClick={() => onSelect(node.id)}>
        {node.name}
      </button>
      {node.children.length > 0 && <ul>{node.children.map(item)}</ul>}
    </li>
  );

  return (
    <nav className="category-nav" aria-label={intl.formatMessage({ id: 'shop.categories.label', defaultMessage: 'Categories' })}>
      <ul className="category-list">
        <li>
          <button type="button" className={`category-link${selected === null ? ' active' : ''}`} aria-current={selected === null ? 'page' : undefined} onClick={() => onSelect(null)}>
            {everything}
          </button>
        </li>
        {tree.map(item)}
      </ul>
      <HTMLSelect
        className="category-select"
        aria-label={intl.formatMessage({ id: 'shop.categories.select', defaultMessage: 'Category' })}
        fill
        value={selected ?? ''}
        onChange={(event) => onSelect(event.currentTarget.value ? Number(event.currentTarget.value) : null)}
        options={[{ value: '', label: everything }, ...flat.map((c) => ({ value: c.id, label: c.label }))]}
      />
    </nav>
  );
}
