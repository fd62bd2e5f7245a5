import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * Whether the operation asks, below the field being resolved, for the field at `path` (e.g.
 * ['lines', 'product']), through fragments too: a resolver may then start that read at once, beside
 * its own, instead of after it.
 */
export function asksFor(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: readonly string[]): boolean {
  const search = (set: SelectionSetNode | undefined, depth: number, seen: ReadonlySet<string>): boolean => {
    if (!set) return false;
    return set.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value === path[depth] && (depth === path.length - 1 || search(selection.selectionSet, depth + 1, seen));
      if (selection.kind === Kind.INLINE_FRAGMENT) return search(selection.selectionSet, depth, seen);
      const name = selection.name.value;
      return !seen.has(name) && search(info.fragments[name]?.selectionSet, depth, new Set([...seen, name]));
    });
  };
  return path.length > 0 && info.fieldNodes.some((node) => search(node.selectionSet, 0, new Set()));
}
