import { describe, expect, it } from 'vitest';
import { ancestorIds, buildTree, subtreeIds } from '../../web/src/common/tree.js';

const names = (nodes: { name: string; children: unknown[] }[]): unknown =>
  nodes.map((n) => (n.children.length ? { [n.name]: names(n.children as never) } : n.name));

describe('building a tree from the flat list', () => {
  const flat = [
    { id: 1, name: 'Cards', parentId: null },
    { id: 2, name: 'Spring', parentId: 1 },
    { id: 3, name: 'Autumn', parentId: 1 },
    { id: 4, name: 'Tulips', parentId: 2 },
    { id: 5, name: 'Albums', parentId: null },
  ];

  it('finds a node with everything below it (what a category delete takes along)', () => {
    expect(subtreeIds(flat, 1).sort()).toEqual([1, 2, 3, 4]);
    expect(subtreeIds(flat, 2).sort()).toEqual([2, 4]);
    expect(subtreeIds(flat, 5)).toEqual([5]);
    expect(subtreeIds(flat, 99)).toEqual([]);
  });

  it('nests children under their parents, sorted when asked', () => {
    expect(names(buildTree(flat, (a, b) => a.name.localeCompare(b.name)))).toEqual(['Albums', { Cards: ['Autumn', { Spring: ['Tulips'] }] }]);
  });

  it('makes orphans roots and breaks cycles instead of looping', () => {
    const odd = [
      { id: 1, name: 'A', parentId: 2 },
      { id: 2, name: 'B', parentId: 1 },
      { id: 3, name: 'Orphan', parentId: 99 },
    ];
    const roots = buildTree(odd);
    // Every node is shown exactly once.
    expect(roots.map((r) => r.name).sort()).toEqual(['A', 'B', 'Orphan']);
    expect(roots.every((r) => r.children.length === 0)).toBe(true);
  });

  it('does not change the flat list', () => {
    const copy = structuredClone(flat);
    buildTree(flat);
    expect(flat).toEqual(copy);
  });

  it('lists the ancestors of a node, nearest first', () => {
    expect(ancestorIds(flat, 4)).toEqual([2, 1]);
    expect(ancestorIds(flat, 5)).toEqual([]);
  });
});
