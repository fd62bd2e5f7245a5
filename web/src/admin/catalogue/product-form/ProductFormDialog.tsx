import { useEffect } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import type { ProductInput } from '../../../apollo/generated/graphql';
import { AdditionalImagesField, CardFields, DescriptionField, MainImageField, NameField, PriceFields, StatusField, TagsField } from './ProductFormParts';
import { E_GREETING_CARD_TYPE, type ProductFormState } from './product-form-state';
import { useProductForm } from './use-product-form';
import './product-form.css';

export const PRODUCT_FORM_WIDTH = 800;

/**
 * The product form (800 px): 'Edit Product' or 'Create {type name}'. Every product has a main image,
 * name, price, description, tags and additional images; an e-greeting card also has its message
 * placement, font, images and songs, with a live preview. `onSubmit` saves and throws on failure;
 * the server's field errors land on their fields. The editor page (`/admindash/products/{id}`) lays
 * out the same parts as sections.
 */
export function ProductFormDialog({
  isOpen,
  title,
  initial,
  productTypeId,
  categoryId,
  onClose,
  onSubmit,
}: {
  isOpen: boolean;
  title: string;
  initial: ProductFormState;
  productTypeId: number;
  categoryId: number;
  onClose: () => void;
  onSubmit: (input: ProductInput) => Promise<void>;
}) {
  const { api, saving, formError, reset, save } = useProductForm(initial);
  const isCard = productTypeId === E_GREETING_CARD_TYPE;

  useEffect(() => {
    if (isOpen) reset(initial);
  }, [isOpen, initial, reset]);

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={title} icon="box" style={{ width: PRODUCT_FORM_WIDTH, maxWidth: '96vw' }} className="product-form-dialog" canOutsideClickClose={false}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save({ categoryId, productTypeId }, onSubmit);
        }}
        noValidate
      >
        <DialogBody className="product-form">
          {formError && (
            <Callout intent="danger" icon="error" className="product-form-error">
              {formError}
            </Callout>
          )}
          <div className="product-form-top">
            <MainImageField api={api} />
            <div className="product-form-main-fields">
              <NameField api={api} autoFocus />
              <StatusField api={api} />
              <PriceFields api={api} />
            </div>
          </div>
          <DescriptionField api={api} />
          <TagsField api={api} />
          <AdditionalImagesField api={api} />
          {isCard && <CardFields api={api} />}
        </DialogBody>
        <DialogFooter
          actions={[
            <Button key="cancel" text="Cancel" onClick={onClose} />,
            <Button key="save" type="submit" intent="primary" icon="floppy-disk" text="Save" loading={saving} />,
          ]}
        />
      </form>
    </Dialog>
  );
}
