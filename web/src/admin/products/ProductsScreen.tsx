import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useUrlParams } from '../../common/url-params';
import { toggled } from '../../common/toggled';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, ButtonGroup, Callout, Checkbox, H2, HTMLSelect, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { errorMessage } from '../../apollo/errors';
import type { AdminProductSort, BulkProductActionInput, ProductStatus } from '../../apollo/generated/graphql';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { CursorPager, useCursorPages } from '../../common/CursorPager';
import { snackbar, snackbarWithAction } from '../../common/toaster';
import { useDebounced } from '../../storefront/common/use-debounced';
import { SalePrice } from '../../storefront/common/SalePrice';
import { ProductTypesQuery } from '../catalogue/catalogue-operations';
import { useCategoryOptions } from '../catalogue/category-options';
import { dateTime } from '../orders/order-format';
import { BulkActionDialog, type AskingAction } from './BulkActionDialog';
import { AdminProductsQuery, BulkUpdateProductsMutation, UndoBulkUpdateProductsMutation } from './products-operations';
import './products.css';

const PAGE = 50;
const SORTS: { value: AdminProductSort; label: string }[] = [
  { value: 'NAME', label: 'Name' },
  { value: 'PRICE_ASC', label: 'Price: low to high' },
  { value: 'PRICE_DESC', label: 'Price: high to low' },
  { value: 'UPDATED', label: 'Last changed' },
];
const STATUSES: { value: ProductStatus; label: string; intent: 'success' | 'warning' | 'none' }[] = [
  { value: 'ACTIVE', label: 'Active', intent: 'success' },
  { value: 'DRAFT', label: 'Draft', intent: 'warning' },
  { value: 'ARCHIVED', label: 'Archived', intent: 'none' },
];
const productCount = (n: number) => (n === 1 ? '1 product' : `${n.toLocaleString()} products`);

/** What a bulk action did, as the snackbar says it. */
const DONE: Record<BulkProductActionInput['type'], string> = { PUBLISH: 'published', ARCHIVE: 'archived', MOVE: 'moved', PRICE: 'repriced', ADD_TAG: 'tagged', REMOVE_TAG: 'untagged', DELETE: 'deleted' };

/**
 * Products (contract section 16): every product of the shop whatever its status, searched by words or
 * SKU, filtered by category, type, status and sale, sorted, in pages of 50; products chosen on a page
 * are published, archived, moved, repriced, tagged or deleted together. The filters live in the URL.
 */
export function ProductsScreen() {
  const [params, update] = useUrlParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const query = useDebounced(text.trim(), 250);
  const categoryId = Number(params.get('category')) || null;
  const typeId = Number(params.get('type')) || null;
  const status = (STATUSES.find((s) => s.value === params.get('status'))?.value ?? null) as ProductStatus | null;
  const onSale = params.get('on_sale') === '1' ? true : null;
  const sort = (SORTS.find((s) => s.value === params.get('sort'))?.value ?? 'NAME') as AdminProductSort;
  const navigate = useNavigate();
  const pages = useCursorPages(PAGE);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [asking, setAsking] = useState<AskingAction | null>(null);
  const [deleting, setDeleting] = useState(false);

  // A new search or filter starts at the first page, with nothing chosen.
  useEffect(() => {
    pages.reset();
    setChosen(new Set());
    update({ q: query || null }, { replace: true });
  }, [query, categoryId, typeId, status, onSale, sort]);

  const types = useQuery(ProductTypesQuery);
  const { data, error, loading, refetch } = useQuery(AdminProductsQuery, {
    variables: { query: query || null, categoryId, productTypeId: typeId, status, onSale, sort, first: PAGE, after: pages.after },
    fetchPolicy: 'cache-and-network',
  });
  const [runBulk, bulk] = useMutation(BulkUpdateProductsMutation);
  const [runUndo] = useMutation(UndoBulkUpdateProductsMutation);
  const page = data?.adminProducts;

  const categoryOptions = useCategoryOptions();
  const categoryName = (id: number) => categoryOptions.find((c) => c.id === id)?.label ?? `#${id}`;

  const onPage = page?.edges.map((e) => e.node.id) ?? [];
  const allChosen = onPage.length > 0 && onPage.every((id) => chosen.has(id));
  const toggle = (id: number) => setChosen((current) => toggled(current, id));

  const run = async (action: BulkProductActionInput) => {
    const ids = [...chosen];
    try {
      const result = await runBulk({ variables: { ids, action }, refetchQueries: 'active', awaitRefetchQueries: true });
      const { updated = 0, undoId = null } = result.data?.bulkUpdateProducts ?? {};
      const message = `${productCount(updated)} ${DONE[action.type]}.`;
      void (undoId ? snackbarWithAction(message, { text: 'Undo', onClick: () => void undo(undoId) }) : snackbar(message));
      setChosen(new Set());
      setAsking(null);
      setDeleting(false);
    } catch (failure) {
      void snackbar(errorMessage(failure, 'The products could not be changed.'), 'danger');
    }
  };

  const undo = async (undoId: string) => {
    try {
      const result = await runUndo({ variables: { undoId }, refetchQueries: 'active', awaitRefetchQueries: true });
      const { restored = 0, skipped = 0 } = result.data?.undoBulkUpdateProducts ?? {};
      const kept = skipped ? `Left as they are: ${productCount(skipped)} changed since.` : undefined;
      void snackbar(`${productCount(restored)} restored.`, 'success', kept);
    } catch (failure) {
      void snackbar(errorMessage(failure, 'The change could not be undone.'), 'danger');
    }
  };

  return (
    <div className="products-screen">
      <div className="products-toolbar">
        <H2>Products</H2>
        <Button intent="primary" icon="add" text="New product" onClick={() => void navigate('/admindash/products/new')} />
        <InputGroup className="products-search" type="search" leftIcon="search" placeholder="Search by name, tag or SKU" aria-label="Search products" value={text} onValueChange={setText} rightElement={loading ? <Spinner size={16} className="products-search-spinner" /> : undefined} />
      </div>
      <div className="products-filters">
        <HTMLSelect aria-label="Category" value={categoryId ? String(categoryId) : ''} onChange={(e) => update({ category: e.currentTarget.value || null })} options={[{ value: '', label: 'All categories' }, ...categoryOptions.map((c) => ({ value: String(c.id), label: c.label }))]} />
        <HTMLSelect aria-label="Type" value={typeId ? String(typeId) : ''} onChange={(e) => update({ type: e.currentTarget.value || null })} options={[{ value: '', label: 'All types' }, ...(types.data?.productTypes ?? []).map((t) => ({ value: String(t.id), label: t.name }))]} />
        <HTMLSelect aria-label="Status" value={status ?? ''} onChange={(e) => update({ status: e.currentTarget.value || null })} options={[{ value: '', label: 'Any status' }, ...STATUSES.map((s) => ({ value: s.value, label: s.label }))]} />
        <HTMLSelect aria-label="Sort by" value={sort} onChange={(e) => update({ sort: e.currentTarget.value === 'NAME' ? null : e.currentTarget.value })} options={SORTS} />
        <Checkbox className="products-on-sale" label="On sale" checked={onSale === true} onChange={(e) => update({ on_sale: e.currentTarget.checked ? '1' : null })} />
      </div>

      {chosen.size > 0 && (
        <div className="products-bulk-bar" role="toolbar" aria-label="Chosen products">
          <strong aria-live="polite">{chosen.size === 1 ? '1 chosen' : `${chosen.size} chosen`}</strong>
          <ButtonGroup className="products-bulk-actions">
            <Button icon="eye-open" text="Publish" onClick={() => void run({ type: 'PUBLISH' })} loading={bulk.loading} />
            <Button icon="archive" text="Archive" onClick={() => void run({ type: 'ARCHIVE' })} />
            <Button icon="move" text="Move…" onClick={() => setAsking('move')} />
            <Button icon="dollar" text="Price…" onClick={() => setAsking('price')} />
            <Button icon="tag" text="Tag…" onClick={() => setAsking('tag')} />
            <Button icon="trash" intent="danger" text="Delete" onClick={() => setDeleting(true)} />
          </ButtonGroup>
          <Button variant="minimal" text="Clear" onClick={() => setChosen(new Set())} />
        </div>
      )}

      {error && !page ? (
        <Callout intent="danger" title="Products could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !page ? (
        <Spinner className="products-state" />
      ) : page.edges.length === 0 ? (
        <NonIdealState className="products-state" icon="box" title={query || categoryId || typeId || status || onSale ? 'No product matches' : 'No products yet'} description={query ? `Nothing matches “${query}” with these filters.` : undefined} />
      ) : (
        <>
          <table className="bp6-html-table bp6-html-table-striped products-table" aria-label="Products">
            <thead>
              <tr>
                <th className="products-check">
                  <Checkbox aria-label="Choose every product on this page" checked={allChosen} indeterminate={!allChosen && onPage.some((id) => chosen.has(id))} onChange={() => setChosen(allChosen ? new Set([...chosen].filter((id) => !onPage.includes(id))) : new Set([...chosen, ...onPage]))} />
                </th>
                <th>Product</th>
                <th>Status</th>
                <th className="products-number">Price</th>
                <th>Category</th>
                <th>Changed</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {page.edges.map(({ node }) => {
                const state = STATUSES.find((s) => s.value === node.status)!;
                return (
                  <tr key={node.id} className={chosen.has(node.id) ? 'products-chosen' : undefined}>
                    <td className="products-check">
                      <Checkbox aria-label={`Choose ${node.name}`} checked={chosen.has(node.id)} onChange={() => toggle(node.id)} />
                    </td>
                    <td className="products-name">
                      {node.mainImageThumbnailPath ? <img src={`/api/${node.mainImageThumbnailPath}`} alt="" width={40} height={40} loading="lazy" /> : <span className="products-no-image" />}
                      <span>
                        <Link to={`/admindash/products/${node.id}`} className="products-link">
                          <strong>{node.name}</strong>
                        </Link>
                        {node.sku && <span className="muted products-sku">{node.sku}</span>}
                      </span>
                    </td>
                    <td>
                      <Tag minimal round intent={state.intent}>
                        {state.label}
                      </Tag>
                    </td>
                    <td className="products-number">
                      <SalePrice price={node.price} compareAt={node.compareAtPrice} />
                    </td>
                    <td>{categoryName(node.categoryId)}</td>
                    <td className="muted">{dateTime(node.updatedAt)}</td>
                    <td>
                      <Button variant="minimal" icon="edit" aria-label={`Edit ${node.name}`} title="Edit" onClick={() => void navigate(`/admindash/products/${node.id}`)} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <CursorPager pages={pages} shown={page.edges.length} page={page} />
        </>
      )}
      <BulkActionDialog key={asking ?? 'none'} kind={asking} count={chosen.size} categories={categoryOptions} busy={bulk.loading} onRun={(action) => void run(action)} onClose={() => setAsking(null)} />
      <ConfirmAlert isOpen={deleting} message={`Delete ${chosen.size === 1 ? 'this product' : `these ${chosen.size} products`}? Orders keep what was sold; the products leave the shop and the console.`} onConfirm={() => void run({ type: 'DELETE' })} onCancel={() => setDeleting(false)} />
    </div>
  );
}
