import type { JSX } from 'react';
import { NodeTree, type NodeItem } from '../NodeTree';

export type FolderItem = NodeItem;

/** The media library's folder tree: folder icons, open when expanded. */
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
  return (
    <NodeTree
      items={folders}
      selectedId={selectedId}
      onSelect={onSelect}
      renderActions={renderActions}
      renderIcon={(_folder, open) => (open ? 'folder-open' : 'folder-close')}
    />
  );
}
