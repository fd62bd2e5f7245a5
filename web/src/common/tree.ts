export interface FlatNode {
  id: number;
  parentId?: number | null;
}

export type TreeNode<T extends FlatNode> = T & { children: TreeNode<T>[] };

/**
 * Builds a tree from a flat list linked by `parentId`. Nodes whose parent is missing become roots,
 * and a cycle (which the server refuses, but a stale cache could hold) is broken rather than looped.
 */
export function buildTree<T extends FlatNode>(flat: readonly T[], compare?: (a: T, b: T) => number): TreeNode<T>[] {
  const nodes = new Map<number, TreeNode<T>>(flat.map((item) => [item.id, { ...item, children: [] }]));
  const roots: TreeNode<T>[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId == null ? undefined : nodes.get(node.parentId);
    if (parent && !isAncestor(node, parent, nodes)) parent.children.push(node);
    else roots.push(node);
  }
  if (compare) {
    const sort = (list: TreeNode<T>[]) => {
      list.sort(compare);
      list.forEach((node) => sort(node.children));
    };
    sort(roots);
  }
  return roots;
}

/** Whether `node` is `candidate` or one of its ancestors (following parentId links). */
function isAncestor<T extends FlatNode>(node: TreeNode<T>, candidate: TreeNode<T>, nodes: Map<number, TreeNode<T>>): boolean {
  const seen = new Set<number>();
  for (let current: TreeNode<T> | undefined = candidate; current; current = current.parentId == null ? undefined : nodes.get(current.parentId)) {
    if (current.id === node.id) return true;
    if (seen.has(current.id)) return false;
    seen.add(current.id);
  }
  return false;
}

/** The ids of a node's ancestors, nearest first. */
export function ancestorIds<T extends FlatNode>(flat: readonly T[], id: number): number[] {
  const byId = new Map(flat.map((item) => [item.id, item]));
  const result: number[] = [];
  for (let current = byId.get(id); current?.parentId != null && !result.includes(current.parentId); current = byId.get(current.parentId)) {
    result.push(current.parentId);
  }
  return result;
}

/** The id of a node and of every node below it. */
export function subtreeIds<T extends FlatNode>(flat: readonly T[], id: number): number[] {
  return flat.filter((item) => item.id === id || ancestorIds(flat, item.id).includes(id)).map((item) => item.id);
}
