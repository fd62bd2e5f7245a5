import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, ButtonGroup, Card, H4, Icon, Menu, MenuItem, NonIdealState, PopoverNext, Spinner, Tag } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { ProductListFieldsFragment } from '../../../apollo/generated/graphql';
import { ConfirmAlert } from '../../../common/ConfirmAlert';
import { reportError } from '../../../common/report-error';
import { snackbar } from '../../../common/toaster';
import { PRODUCT_PAGE, removeProduct } from '../catalogue-cache';
import { CategoryProductsQuery, DeleteProductMutation } from '../catalogue-operations';

export const DELETE_PRODUCT_QUESTION = 'Are you sure you want to delete this product?';

const TYPE_ICONS: Record<number, IconName> = { 1: 'envelope', 2: 'music', 3: 'media' };

/** The Create Product menu: one entry per product type. */
export function CreateProductMenu({ types, onCreate }: { types: readonly { id: number; name: string }[]; onCreate: (typeId: number) => void }) {
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <Menu aria-label="Product types">
          {types.map((type) => (
            <MenuItem key={type.id} icon={TYPE_ICONS[type.id] ?? 'box'} text={type.name} onClick={() => onCreate(type.id)} />
          ))}
        </Menu>
      }
    >
      <Button intent="primary" icon="add" endIcon="caret-down" text="Create Product" />
    </PopoverNext>
  );
}

/** The products of the selected category: thumbnail, name, description, edit and delete. */
export function ProductsPanel({
  category,
  types,
  onCreate,
  onEdit,
}: {
  category: { id: number; name: string } | null;
  types: readonly { id: number; name: string }[];
  onCreate: (typeId: number) => void;
  onEdit: (productId: number) => void;
}) {
  const products = useQuery(CategoryProductsQuery, { variables: { categoryId: category?.id ?? 0, first: PRODUCT_PAGE }, skip: !category });
  const [deleting, setDeleting] = useState<ProductListFieldsFragment | null>(null);
  const [deleteProduct] = useMutation(DeleteProductMutation);

  useEffect(() => {
    if (products.error) reportError('fetching products', 'Failed to fetch products', products.error);
  }, [products.error]);

  const onDelete = async () => {
    const product = deleting;
    setDeleting(null);
    if (!product) return;
    try {
      await deleteProduct({ variables: { id: product.id }, update: (cache) => removeProduct(cache, product) });
      void snackbar('Product deleted successfully!');
    } catch (error) {
      reportError('deleting product', 'Failed to delete product', error);
    }
  };

  const typeName = new Map(types.map((t) => [t.id, t.name]));
  const page = products.data?.products;
  const list = page?.edges.map((edge) => edge.node) ?? [];

  return (
    <Card className="catalogue-products">
      <div className="catalogue-products-head">
        <H4>{category ? category.name : 'Products'}</H4>
        {page && <span className="muted">{page.totalCount === 1 ? '1 product' : `${page.totalCount} products`}</span>}
        <span className="catalogue-spacer" />
        <CreateProductMenu types={types} onCreate={onCreate} />
      </div>
      {!category ? (
        <NonIdealState icon="diagram-tree" description="Select a category to view products." />
      ) : products.loading && !page ? (
        <Spinner size={24} />
      ) : list.length === 0 ? (
        <NonIdealState icon="box" description="No products in this category." />
      ) : (
        <ul className="catalogue-product-list">
          {list.map((product) => (
            <li key={product.id} className="catalogue-product">
              {product.mainImageThumbnailPath ? (
                <img className="catalogue-product-thumb" src={`/api/${product.mainImageThumbnailPath}`} alt={product.name} loading="lazy" />
              ) : (
                <span className="catalogue-product-thumb catalogue-product-thumb-empty">
                  <Icon icon={TYPE_ICONS[product.productTypeId] ?? 'box'} size={24} />
                </span>
              )}
              <div className="catalogue-product-text">
                <div className="catalogue-product-title">
                  <strong>{product.name}</strong>
                  <Tag minimal round>
                    {typeName.get(product.productTypeId) ?? 'Product'}
                  </Tag>
                  {product.status !== 'ACTIVE' && (
                    <Tag minimal round intent={product.status === 'DRAFT' ? 'warning' : 'none'} icon={product.status === 'DRAFT' ? 'edit' : 'archive'}>
                      {product.status === 'DRAFT' ? 'Draft' : 'Archived'}
                    </Tag>
                  )}
                  <span className="catalogue-product-price">${product.price}</span>
                </div>
                {product.description && <p className="catalogue-product-description">{product.description}</p>}
              </div>
              <ButtonGroup variant="minimal" className="catalogue-product-actions">
                <Button icon="edit" aria-label={`Edit product ${product.name}`} title="Edit" onClick={() => onEdit(product.id)} />
                <Button icon="trash" intent="danger" aria-label={`Delete product ${product.name}`} title="Delete" onClick={() => setDeleting(product)} />
              </ButtonGroup>
            </li>
          ))}
        </ul>
      )}
      {page?.pageInfo.hasNextPage && (
        <div className="catalogue-more">
          <Button
            text="Load more"
            onClick={() => void products.fetchMore({ variables: { after: page.pageInfo.endCursor } }).catch((e: unknown) => reportError('fetching products', 'Failed to fetch products', e))}
          />
        </div>
      )}
      <ConfirmAlert isOpen={deleting !== null} message={DELETE_PRODUCT_QUESTION} onConfirm={() => void onDelete()} onCancel={() => setDeleting(null)} />
    </Card>
  );
}
