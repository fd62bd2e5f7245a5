import { useLayoutEffect, useMemo, useState, type DragEvent, type JSX } from 'react';
import { Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { ancestorIds, buildTree, type TreeNode } from './tree';
import './node-tree.css';

export interface NodeItem {
  id: number;
  name: string;
  parentId?: number | null;
}

const DRAG_TYPE = 'application/x-tree-node';

/**
 * A tree derived from a flat list plus the expanded and selected ids (nothing deep-cloned). With
 * `onMove`, a node can be dragged onto another node, or onto the top-level strip, to move it there;
 * a drop into its own subtree is not offered.
 */
export function NodeTree<T extends NodeItem>({
  items,
  selectedId,
  onSelect,
  renderActions,
  renderIcon,
  onMove,
}: {
  items: readonly T[];
  selectedId: number | null;
  onSelect: (id: number) => void;
  renderActions?: (item: T) => JSX.Element;
  renderIcon: (item: T, expanded: boolean) => TreeNodeInfo['icon'];
  onMove?: (id: number, parentId: number | null) => void;
}) {
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | 'root' | null>(null);

  // The selected node is always in view: its ancestors open (e.g. after creating a child or moving
  // it), before the browser paints the tree without them.
  useLayoutEffect(() => {
    if (selectedId === null) return;
    const up = ancestorIds(items, selectedId);
    if (up.length) setExpanded((current) => (up.every((id) => current.has(id)) ? current : new Set([...current, ...up])));
  }, [items, selectedId]);
  const roots = useMemo(() => buildTree(items, (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })), [items]);
  const byId = useMemo(() => new Map(items.map((item) => [item.id, item])), [items]);

  /** Whether the dragged node may move under `target` (null: the top level). */
  const canDrop = (target: number | null) => {
    if (dragged === null) return false;
    const node = byId.get(dragged);
    if (!node || (node.parentId ?? null) === target) return false;
    return target === null || (target !== dragged && !ancestorIds(items, target).includes(dragged));
  };

  const dropHandlers = (target: number | null) => ({
    onDragOver(event: DragEvent) {
      if (!canDrop(target)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      setOver(target ?? 'root');
    },
    onDragLeave() {
      setOver((current) => (current === (target ?? 'root') ? null : current));
    },
    onDrop(event: DragEvent) {
      event.preventDefault();
      const id = dragged;
      setDragged(null);
      setOver(null);
      if (id !== null && canDrop(target)) onMove?.(id, target);
    },
  });

  const nodeLabel = (node: TreeNode<T>) =>
    onMove ? (
      <span
        className={`node-tree-label${over === node.id ? ' drop-target' : ''}`}
        draggable
        onDragStart={(event) => {
          event.dataTransfer.setData(DRAG_TYPE, String(node.id));
          event.dataTransfer.effectAllowed = 'move';
          setDragged(node.id);
        }}
        onDragEnd={() => {
          setDragged(null);
          setOver(null);
        }}
        {...dropHandlers(node.id)}
      >
        {node.name}
      </span>
    ) : (
      node.name
    );

  const toInfo = (node: TreeNode<T>): TreeNodeInfo<number> => ({
    id: node.id,
    label: nodeLabel(node),
    icon: renderIcon(node, expanded.has(node.id) && node.children.length > 0),
    isExpanded: expanded.has(node.id),
    isSelected: node.id === selectedId,
    hasCaret: node.children.length > 0,
    childNodes: node.children.map(toInfo),
    nodeData: node.id,
    secondaryLabel: renderActions?.(node),
  });

  const toggle = (id: number, open: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <div className="node-tree">
      <Tree
        contents={roots.map(toInfo)}
        onNodeClick={(node) => {
          onSelect(node.id as number);
          toggle(node.id as number, true);
        }}
        onNodeExpand={(node) => toggle(node.id as number, true)}
        onNodeCollapse={(node) => toggle(node.id as number, false)}
      />
      {onMove && dragged !== null && (
        <div className={`node-tree-root-drop${over === 'root' ? ' drop-target' : ''}`} {...dropHandlers(null)}>
          {canDrop(null) ? 'Drop here to move to the top level' : 'Drop on another entry to move it there'}
        </div>
      )}
    </div>
  );
}
