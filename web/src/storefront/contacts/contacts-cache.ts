import type { ApolloCache, Reference } from '@apollo/client';
import { searchMatches } from './contact-format';

interface ContactShape {
  __typename?: 'Contact';
  id: number;
  name: string;
  email: string;
}

interface StoredEdge {
  __typename: 'ContactEdge';
  cursor: string;
  node: Reference;
}

interface StoredConnection {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: StoredEdge[];
}

/** The search a stored `contacts` field was read with (its store name carries its key arguments). */
function searchOf(storeFieldName: string): string {
  const args = /\((.*)\)$/.exec(storeFieldName)?.[1] ?? /:(\{.*\})$/.exec(storeFieldName)?.[1];
  try {
    return (args ? (JSON.parse(args) as { search?: string | null }).search : null) ?? '';
  } catch {
    return '';
  }
}

const byName = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase());

/**
 * The address book's lists in the cache after a write, without asking the server again: a new
 * contact goes into each loaded list it belongs to (by the list's search) at its place in name
 * order (or is left for a later page not loaded yet), a changed one moves to its place, a deleted
 * one leaves every list; the counts follow.
 */
export function updateContactLists(cache: ApolloCache, change: { added?: ContactShape; changed?: ContactShape; deletedId?: number }): void {
  if (change.deletedId !== undefined) {
    const id = cache.identify({ __typename: 'Contact', id: change.deletedId });
    cache.modify<Record<string, StoredConnection>>({
      id: 'ROOT_QUERY',
      fields: {
        contacts(value, { readField }) {
          const existing = value as StoredConnection;
          const edges = existing.edges.filter((edge) => readField<number>('id', edge.node) !== change.deletedId);
          return edges.length === existing.edges.length ? existing : { ...existing, edges, totalCount: Math.max(0, existing.totalCount - 1) };
        },
      },
    });
    if (id) cache.evict({ id });
    cache.gc();
    return;
  }
  const contact = change.added ?? change.changed;
  if (!contact) return;
  const ref = cache.identify({ __typename: 'Contact', id: contact.id });
  cache.modify<Record<string, StoredConnection>>({
    id: 'ROOT_QUERY',
    fields: {
      contacts(value, { readField, storeFieldName, toReference }) {
        const existing = value as StoredConnection;
        const others = existing.edges.filter((edge) => readField<number>('id', edge.node) !== contact.id);
        const wasIn = others.length !== existing.edges.length;
        if (!searchMatches(contact, searchOf(storeFieldName))) {
          return wasIn ? { ...existing, edges: others, totalCount: Math.max(0, existing.totalCount - 1) } : existing;
        }
        const at = others.findIndex((edge) => byName(readField<string>('name', edge.node) ?? '', contact.name) > 0);
        // Past the last loaded contact while more pages wait: its page brings it.
        if (at === -1 && existing.pageInfo.hasNextPage) return wasIn ? { ...existing, edges: others } : { ...existing, totalCount: existing.totalCount + 1 };
        const node = ref ? toReference(ref) : undefined;
        if (!node) return existing;
        const edge: StoredEdge = { __typename: 'ContactEdge', cursor: '', node };
        const edges = at === -1 ? [...others, edge] : [...others.slice(0, at), edge, ...others.slice(at)];
        return { ...existing, edges, totalCount: existing.totalCount + (wasIn ? 0 : 1) };
      },
    },
  });
}
