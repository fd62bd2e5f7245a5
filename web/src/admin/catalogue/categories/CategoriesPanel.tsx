import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, ButtonGroup, Card, Spinner } from '@blueprintjs/core';
import type { CategoryFieldsFragment } from '../../../apollo/generated/graphql';
import { ConfirmAlert } from '../../../common/ConfirmAlert';
import { NodeTree } from '../../../common/NodeTree';
import { reportError } from '../../../common/report-error';
import { snackbar } from '../../../common/toaster';
import { subtreeIds } from '../../../common/tree';
import { removeCategories } from '../catalogue-cache';
import { CategoriesQuery, CreateCategoryMutation, DeleteCategoryMutation, UpdateCategoryMutation } from '../catalogue-operations';
import { CategoryDialog, type CategoryDialogMode } from './CategoryDialog';

export const DELETE_CATEGORY_QUESTION = 'Are you sure you want to delete this category and all its subcategories and products?';

/**
 * The category tree with its toolbar: create top-level categories and subcategories, edit (name and
 * image), delete with everything below, and move a category by dragging it onto another.
 */
export function CategoriesPanel({
  selectedId,
  onSelect,
  onManageTypes,
}: {
  selectedId: number | null;
  onSelect: (id: number | null) => void;
  onManageTypes: () => void;
}) {
  const categories = useQuery(CategoriesQuery);
  const [dialog, setDialog] = useState<CategoryDialogMode | null>(null);
  const [deleting, setDeleting] = useState<CategoryFieldsFragment | null>(null);
  const [createCategory] = useMutation(CreateCategoryMutation, {
    update(cache, { data }) {
      if (data) cache.updateQuery({ query: CategoriesQuery }, (current) => (current ? { categories: [...current.categories, data.createCategory] } : current));
    },
  });
  const [updateCategory] = useMutation(UpdateCategoryMutation);
  const [deleteCategory] = useMutation(DeleteCategoryMutation);

  useEffect(() => {
    if (categories.error) reportError('fetching categories', 'Failed to fetch categories', categories.error);
  }, [categories.error]);

  const list = categories.data?.categories ?? [];
  const selected = list.find((c) => c.id === selectedId) ?? null;

  const onSubmit = async (values: { name: string; mediaId?: number | null }) => {
    const current = dialog;
    setDialog(null);
    if (!current) return;
    if (current.kind === 'edit') {
      try {
        await updateCategory({ variables: { id: current.id, input: values } });
        void snackbar('Category updated successfully!');
      } catch (error) {
        reportError('updating category', 'Failed to update category', error);
      }
      return;
    }
    try {
      const result = await createCategory({ variables: { input: { name: values.name, parentId: current.kind === 'sub' ? current.parentId : null } } });
      void snackbar('Category created successfully!');
      if (result.data) onSelect(result.data.createCategory.id);
    } catch (error) {
      reportError('creating category', 'Failed to create category', error);
    }
  };

  const onDelete = async () => {
    const category = deleting;
    setDeleting(null);
    if (!category) return;
    const gone = subtreeIds(list, category.id);
    try {
      await deleteCategory({ variables: { id: category.id }, update: (cache) => removeCategories(cache, gone) });
      if (selectedId !== null && gone.includes(selectedId)) onSelect(null);
      void snackbar('Category deleted successfully!');
    } catch (error) {
      reportError('deleting category', 'Failed to delete category', error);
    }
  };

  const onMove = async (id: number, parentId: number | null) => {
    try {
      await updateCategory({ variables: { id, input: { parentId } } });
      onSelect(id); // shown where it landed: its new parent opens
      void snackbar('Category updated successfully!');
    } catch (error) {
      reportError('updating category', 'Failed to update category', error);
    }
  };

  return (
    <Card className="catalogue-categories">
      <div className="catalogue-toolbar">
        <Button icon="folder-new" text="Create Top Level Category" onClick={() => setDialog({ kind: 'root' })} />
        <Button
          icon="folder-new"
          text="Create Subcategory"
          disabled={!selected}
          onClick={() => selected && setDialog({ kind: 'sub', parentId: selected.id, parentName: selected.name })}
        />
        <Button icon="properties" text="Product Types" onClick={onManageTypes} />
      </div>
      {categories.loading && !categories.data ? (
        <Spinner size={24} />
      ) : list.length === 0 ? (
        <p className="muted">No categories yet. Create one to start the catalogue.</p>
      ) : (
        <NodeTree
          items={list}
          selectedId={selectedId}
          onSelect={onSelect}
          onMove={(id, parentId) => void onMove(id, parentId)}
          renderIcon={(category, open) =>
            category.imageThumbnailPath ? <img className="node-tree-thumb" src={`/api/${category.imageThumbnailPath}`} alt="" /> : open ? 'folder-open' : 'folder-close'
          }
          renderActions={(category) => (
            <ButtonGroup variant="minimal" size="small" className="catalogue-tree-actions">
              <Button
                icon="edit"
                aria-label={`Edit category ${category.name}`}
                title="Edit"
                onClick={(e) => {
                  e.stopPropagation();
                  setDialog({
                    kind: 'edit',
                    id: category.id,
                    name: category.name,
                    image: category.mediaId && category.imageThumbnailPath ? { id: category.mediaId, path: category.imageThumbnailPath } : null,
                  });
                }}
              />
              <Button
                icon="trash"
                intent="danger"
                aria-label={`Delete category ${category.name}`}
                title="Delete"
                onClick={(e) => {
                  e.stopPropagation();
                  setDeleting(category);
                }}
              />
            </ButtonGroup>
          )}
        />
      )}
      {list.length > 1 && <p className="catalogue-hint muted">Drag a category onto another to move it there.</p>}
      <CategoryDialog mode={dialog} onClose={() => setDialog(null)} onSubmit={(values) => void onSubmit(values)} />
      <ConfirmAlert isOpen={deleting !== null} message={DELETE_CATEGORY_QUESTION} onConfirm={() => void onDelete()} onCancel={() => setDeleting(null)} />
    </Card>
  );
}
