import { useState, type FormEvent } from 'react';
import { BUILT_IN_PRODUCT_TYPE_IDS } from '@rules';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, ButtonGroup, Dialog, DialogBody, DialogFooter, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { ConfirmAlert } from '../../../common/ConfirmAlert';
import { reportError } from '../../../common/report-error';
import { snackbar } from '../../../common/toaster';
import { CreateProductTypeMutation, DeleteProductTypeMutation, ProductTypesQuery, UpdateProductTypeMutation } from '../catalogue-operations';
import { NameDialog } from '../../../common/NameDialog';

export const DELETE_TYPE_QUESTION = 'Are you sure you want to delete this product type? This cannot be undone.';
/** The types the shop's screens rely on; the server keeps them. */
export const BUILT_IN_TYPE_IDS = BUILT_IN_PRODUCT_TYPE_IDS;

interface TypeRef {
  id: number;
  name: string;
}

/** Manage Product Types: the list, add by button or Enter, edit and delete. */
export function ProductTypesDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const types = useQuery(ProductTypesQuery, { skip: !isOpen });
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<TypeRef | null>(null);
  const [deleting, setDeleting] = useState<TypeRef | null>(null);
  const [createType, creating] = useMutation(CreateProductTypeMutation, {
    update(cache, { data }) {
      if (data) cache.updateQuery({ query: ProductTypesQuery }, (current) => (current ? { productTypes: [...current.productTypes, data.createProductType] } : current));
    },
  });
  const [updateType] = useMutation(UpdateProductTypeMutation);
  const [deleteType] = useMutation(DeleteProductTypeMutation);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    try {
      await createType({ variables: { name: name.trim() } });
      setName('');
      void snackbar('Product type added successfully!');
    } catch (error) {
      reportError('adding product type', 'Failed to add product type', error);
    }
  };

  const rename = async (newName: string) => {
    const type = editing;
    setEditing(null);
    if (!type) return;
    try {
      await updateType({ variables: { id: type.id, name: newName } });
      void snackbar('Product type updated successfully!');
    } catch (error) {
      reportError('updating product type', 'Failed to update product type', error);
    }
  };

  const remove = async () => {
    const type = deleting;
    setDeleting(null);
    if (!type) return;
    try {
      await deleteType({
        variables: { id: type.id },
        update(cache) {
          cache.updateQuery({ query: ProductTypesQuery }, (current) => (current ? { productTypes: current.productTypes.filter((t) => t.id !== type.id) } : current));
          cache.evict({ id: cache.identify({ __typename: 'ProductType', id: type.id }) });
        },
      });
      void snackbar('Product type deleted successfully!');
    } catch (error) {
      reportError('deleting product type', 'Failed to delete product type', error);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Product Types" icon="properties" className="product-types-dialog">
      <DialogBody>
        <form className="product-types-add" onSubmit={(e) => void add(e)}>
          <InputGroup
            aria-label="New product type"
            placeholder="New product type"
            value={name}
            onValueChange={setName}
            maxLength={100}
            autoFocus
          />
          <Button type="submit" intent="primary" icon="add" text="Add" loading={creating.loading} />
        </form>
        {types.loading && !types.data ? (
          <Spinner size={20} />
        ) : (
          <ul className="product-types-list">
            {(types.data?.productTypes ?? []).map((type) => (
              <li key={type.id}>
                <span className="product-types-name">{type.name}</span>
                {BUILT_IN_TYPE_IDS.has(type.id) && (
                  <Tag minimal round>
                    built in
                  </Tag>
                )}
                <ButtonGroup variant="minimal" size="small">
                  <Button icon="edit" aria-label={`Edit product type ${type.name}`} title="Edit" onClick={() => setEditing(type)} />
                  <Button
                    icon="trash"
                    intent="danger"
                    aria-label={`Delete product type ${type.name}`}
                    title={BUILT_IN_TYPE_IDS.has(type.id) ? 'Built-in types cannot be deleted' : 'Delete'}
                    disabled={BUILT_IN_TYPE_IDS.has(type.id)}
                    onClick={() => setDeleting(type)}
                  />
                </ButtonGroup>
              </li>
            ))}
          </ul>
        )}
        {types.error && <p className="muted">The product types could not be loaded.</p>}
      </DialogBody>
      <DialogFooter actions={<Button text="Close" onClick={onClose} />} />
      <NameDialog
        isOpen={editing !== null}
        title="Edit Product Type"
        label="Product type name"
        initial={editing?.name ?? ''}
        confirmText="Save"
        onConfirm={(newName) => void rename(newName)}
        onClose={() => setEditing(null)}
      />
      <ConfirmAlert isOpen={deleting !== null} message={DELETE_TYPE_QUESTION} onConfirm={() => void remove()} onCancel={() => setDeleting(null)} />
    </Dialog>
  );
}
