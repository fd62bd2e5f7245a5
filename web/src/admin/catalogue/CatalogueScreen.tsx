import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useMutation, useQuery } from '@apollo/client/react';
import { H2 } from '@blueprintjs/core';
import type { ProductInput } from '../../apollo/generated/graphql';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { placeProduct } from './catalogue-cache';
import { CategoriesQuery, CreateProductMutation, ProductDetailsQuery, ProductTypesQuery, UpdateProductMutation } from './catalogue-operations';
import { CategoriesPanel } from './categories/CategoriesPanel';
import { NO_CATEGORY } from './product-form/product-form-rules';
import { ProductFormDialog } from './product-form/ProductFormDialog';
import { emptyProductForm, productFormFrom } from './product-form/product-form-state';
import { ProductTypesDialog } from './product-types/ProductTypesDialog';
import { ProductsPanel } from './products/ProductsPanel';
import './catalogue.css';

/** A positive integer search parameter, or null. */
const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : null);

/**
 * Categories & Products: the category tree on the left, the selected category's products on the
 * right. The selection and the open product form live in the URL (`category`, `product`, `create`),
 * so a reload keeps them.
 */
export function CatalogueScreen() {
  const [params, setParams] = useSearchParams();
  const selectedId = idParam(params.get('category'));
  const editId = idParam(params.get('product'));
  const createType = idParam(params.get('create'));
  const [managingTypes, setManagingTypes] = useState(false);

  const categories = useQuery(CategoriesQuery);
  const types = useQuery(ProductTypesQuery);
  const details = useQuery(ProductDetailsQuery, { variables: { id: editId ?? 0 }, skip: editId === null });
  const [createProduct] = useMutation(CreateProductMutation);
  const [updateProduct] = useMutation(UpdateProductMutation);

  const update = (changes: Record<string, number | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null) next.delete(key);
          else next.set(key, String(value));
        }
        return next;
      },
      { replace: false },
    );
  const closeForm = () => update({ product: null, create: null });

  useEffect(() => {
    if (types.error) reportError('fetching product types', 'Failed to fetch product types', types.error);
  }, [types.error]);
  // A product that cannot be fetched closes its form (once per error, with the URL as it is then).
  const detailsFailed = useEffectEvent((error: Error) => {
    reportError('fetching product details', 'Failed to fetch product details', error);
    update({ product: null });
  });
  useEffect(() => {
    if (details.error) detailsFailed(details.error);
  }, [details.error]);

  const typeList = types.data?.productTypes ?? [];
  const category = categories.data?.categories.find((c) => c.id === selectedId) ?? null;
  const product = editId !== null ? details.data?.product : undefined;
  const createTypeEntry = typeList.find((t) => t.id === createType);

  const initial = useMemo(() => (product ? productFormFrom(product) : emptyProductForm()), [product]);

  const onCreate = (typeId: number) => {
    if (!category) {
      void snackbar(NO_CATEGORY, 'danger');
      return;
    }
    update({ create: typeId, product: null });
  };

  const onSubmit = async (input: ProductInput) => {
    try {
      if (product) {
        const previousCategoryId = product.categoryId;
        await updateProduct({
          variables: { id: product.id, input },
          update: (cache, { data }) => data && placeProduct(cache, data.updateProduct, { created: false, previousCategoryId }),
        });
      } else {
        await createProduct({ variables: { input }, update: (cache, { data }) => data && placeProduct(cache, data.createProduct, { created: true }) });
      }
      void snackbar('Product saved successfully!');
      closeForm();
    } catch (error) {
      reportError('saving product', 'Failed to save product', error);
      throw error;
    }
  };

  const formOpen = (editId !== null && product !== undefined) || (createType !== null && createTypeEntry !== undefined && category !== null);

  return (
    <div className="catalogue">
      <div className="catalogue-head">
        <H2>Categories &amp; Products</H2>
      </div>
      <div className="catalogue-columns">
        <CategoriesPanel selectedId={selectedId} onSelect={(id) => update({ category: id, product: null, create: null })} onManageTypes={() => setManagingTypes(true)} />
        <ProductsPanel category={category} types={typeList} onCreate={onCreate} onEdit={(id) => update({ product: id, create: null })} />
      </div>
      <ProductFormDialog
        isOpen={formOpen}
        title={product ? 'Edit Product' : `Create ${createTypeEntry?.name ?? 'Product'}`}
        initial={initial}
        productTypeId={product?.productTypeId ?? createType ?? 0}
        categoryId={product?.categoryId ?? category?.id ?? 0}
        onClose={closeForm}
        onSubmit={onSubmit}
      />
      <ProductTypesDialog isOpen={managingTypes} onClose={() => setManagingTypes(false)} />
    </div>
  );
}
