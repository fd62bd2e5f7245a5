import type { ApolloCache, Reference } from '@apollo/client';

interface CachedConnection {
  totalCount?: number;
  edges?: readonly { node?: Reference | null }[];
  [field: string]: unknown;
}

/**
 * Takes deleted files out of every cached file list (each folder's pages, the all-files list) and
 * then out of the cache. Evicting alone would leave edges pointing at nothing, which makes Apollo
 * refetch the first page and drop any further pages the reader had loaded.
 */
export function removeFilesFromCache(cache: ApolloCache, fileIds: readonly number[]): void {
  if (fileIds.length === 0) return;
  const gone = new Set(fileIds);
  const prune = (existing: CachedConnection, readField: (field: string, from: Reference) => unknown): CachedConnection => {
    if (!existing?.edges) return existing;
    const edges = existing.edges.filter((edge) => !edge.node || !gone.has(readField('id', edge.node) as number));
    if (edges.length === existing.edges.length) return existing;
    const removed = existing.edges.length - edges.length;
    return { ...existing, edges, ...(typeof existing.totalCount === 'number' ? { totalCount: Math.max(0, existing.totalCount - removed) } : {}) };
  };
  cache.modify<Record<string, CachedConnection>>({
    id: 'ROOT_QUERY',
    fields: {
      mediaFiles: (existing, { readField }) => prune(existing as CachedConnection, (field, from) => readField(field, from)),
      allMediaFiles: (existing, { readField }) => prune(existing as CachedConnection, (field, from) => readField(field, from)),
    },
  });
  for (const id of fileIds) cache.evict({ id: cache.identify({ __typename: 'MediaFile', id }) });
}

/** Forgets the file lists of deleted folders (their files are gone with them). */
export function forgetFolderFiles(cache: ApolloCache, folderIds: readonly number[]): void {
  for (const folderId of folderIds) cache.evict({ id: 'ROOT_QUERY', fieldName: 'mediaFiles', args: { folderId } });
}
