import { useEffect, useMemo, useState } from 'react';
import type { JSX } from 'react';
import { Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { ancestorIds, buildTree, type TreeNode } from '../tree';

export interface FolderItem {
  id: number;
  name: string;
  parentId?: number | null;
}

/** A folder tree derived from the flat list plus the expanded and selected ids (nothing deep-cloned). */
export function FolderTree({
  folders,
  selectedId,
  onSelect,
  renderActions,
}: {
  folders: readonly FolderItem[];
  selectedId: number | null;
  onSelect: (id: number) => void;
  renderActions?: (folder: FolderItem) => JSX.Element;
}) {
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  // The selected folder is always in view: its ancestors open (e.g. after creating a subfolder).
  useEffect(() => {
    if (selectedId === null) return;
    const up = ancestorIds(folders, selectedId);
    if (up.length) setExpanded((current) => (up.every((id) => current.has(id)) ? current : new Set([...current, ...up])));
  }, [folders, selectedId]);
  const roots = useMemo(() => buildTree(folders, (a, b) => a.name.localeCompare(b.name)), [folders]);

  const toInfo = (node: TreeNode<FolderItem>): TreeNodeInfo<number> => ({
    id: node.id,
    label: node.name,
    icon: expanded.has(node.id) && node.children.length ? 'folder-open' : 'folder-close',
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
    <Tree
      contents={roots.map(toInfo)}
      onNodeClick={(node) => {
        onSelect(node.id as number);
        toggle(node.id as number, true);
      }}
      onNodeExpand={(node) => toggle(node.id as number, true)}
      onNodeCollapse={(node) => toggle(node.id as number, false)}
    />
  );
}
