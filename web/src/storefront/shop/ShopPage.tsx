import { useEffect, useEffectEvent, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Checkbox, HTMLSelect, InputGroup, Spinner } from '@blueprintjs/core';
import { defineMessages, FormattedMessage, useIntl, type IntlShape, type MessageDescriptor } from 'react-intl';
import { ProductTile } from '../common/ProductTile';
import { productTypeName } from '../common/product-type-name';
import { useDebounced } from '../common/use-debounced';
import { useUrlParams } from '../../common/url-params';
import { CategoryNav } from './CategoryNav';
import { ShopCategoriesQuery, ShopProductsQuery, ShopProductTypesQuery } from './shop-operations';
import { pageLocale } from '../../i18n/page-intl';
import type { ProductSort } from '../../apollo/generated/graphql';
import '../common/storefront.css';
import './shop.css';
import { EmptyState } from '../../common/EmptyState';

const PAGE = 24;
/** The tiles a phone shows first (two rows of two): their pictures are fetched at once. */
const FIRST_IN_VIEW = 4;
/** The e-greeting card type: its tiles need no type named (the shop is mostly cards). */
const CARD_TYPE = 1;

/** "Sort by", as the address spells it (`?sort=`). */
const sortLabels = defineMessages({
  name: { id: 'shop.sort.name', defaultMessage: 'Name' },
  newest: { id: 'shop.sort.newest', defaultMessage: 'Newest' },
  priceAsc: { id: 'shop.sort.priceAsc', defaultMessage: 'Price: low to high' },
  priceDesc: { id: 'shop.sort.priceDesc', defaultMessage: 'Price: high to low' },
});
const SORTS: { param: string; sort: ProductSort; label: MessageDescriptor }[] = [
  { param: 'name', sort: 'NAME', label: sortLabels.name },
  { param: 'newest', sort: 'NEWEST', label: sortLabels.newest },
  { param: 'price_asc', sort: 'PRICE_ASC', label: sortLabels.priceAsc },
  { param: 'price_desc', sort: 'PRICE_DESC', label: sortLabels.priceDesc },
];

/** The price ranges of the filter, as `min_price`/`max_price` in the address. */
const PRICES: { value: string; label: (intl: IntlShape) => string; min: string | null; max: string | null }[] = [
  { value: '', label: (intl) => intl.formatMessage({ id: 'shop.price.any', defaultMessage: 'Any price' }), min: null, max: null },
  { value: '-4.99', label: (intl) => intl.formatMessage({ id: 'shop.price.under', defaultMessage: 'Under {max}' }, { max: dollars(intl, 5) }), min: null, max: '4.99' },
  { value: '5-15', label: (intl) => intl.formatMessage({ id: 'shop.price.between', defaultMessage: '{min} to {max}' }, { min: dollars(intl, 5), max: dollars(intl, 15) }), min: '5', max: '15' },
  { value: '15.01-', label: (intl) => intl.formatMessage({ id: 'shop.price.over', defaultMessage: 'Over {min}' }, { min: dollars(intl, 15) }), min: '15.01', max: null },
];

/** A round price bound of the filter as the page's language writes whole dollars ("$5", "5 $"). */
const dollars = (intl: IntlShape, amount: number) => intl.formatNumber(amount, { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 });

/** /shop: every product, by category, search, type and price, in an order; all live in the URL (`?category=&q=&type=&min_price=&max_price=&on_sale=1&sort=`). */
export default function ShopPage() {
  const [params, changeParams] = useUrlParams();
  const intl = useIntl();
  const categoryId = Number(params.get('category')) || null;
  const [text, setText] = useState(params.get('q') ?? '');
  const query = useDebounced(text.trim(), 300);

  // The search typed, into the address; nothing to do when it is there already (as on arriving at the page).
  const showQuery = useEffectEvent((value: string) => {
    if ((params.get('q') ?? '') === value) return;
    changeParams({ q: value }, { replace: true });
  });
  useEffect(() => showQuery(query), [query]);

  const sort = SORTS.find((s) => s.param === params.get('sort')) ?? null;
  const typeId = Number(params.get('type')) || null;
  const [minPrice, maxPrice] = [params.get('min_price'), params.get('max_price')];
  const price = PRICES.find((p) => p.min === minPrice && p.max === maxPrice) ?? PRICES[0]!;
  const onSale = params.get('on_sale') === '1';
  const categories = useQuery(ShopCategoriesQuery);
  const types = useQuery(ShopProductTypesQuery);
  const typeName = (id: number) => {
    const type = id === CARD_TYPE ? null : types.data?.productTypes.find((t) => t.id === id);
    return type ? productTypeName(intl, type.name) : null;
  };
  // The plain page's variables are the ones the server inlines; a sort or a filter only adds its own.
  const products = useQuery(ShopProductsQuery, {
    variables: { query: query || null, categoryId, first: PAGE, ...(typeId ? { productTypeId: typeId } : {}), ...(sort ? { sort: sort.sort } : {}), ...(minPrice ? { minPrice } : {}), ...(maxPrice ? { maxPrice } : {}), ...(onSale ? { onSale } : {}), locale: pageLocale() },
    notifyOnNetworkStatusChange: true,
  });
  const category = categories.data?.categories.find((c) => c.id === categoryId);
  const connection = products.data?.searchProducts;

  const sortBy = intl.formatMessage({ id: 'shop.sort.label', defaultMessage: 'Sort by' });
  const typeLabel = intl.formatMessage({ id: 'shop.type.label', defaultMessage: 'Type' });
  const priceLabel = intl.formatMessage({ id: 'shop.price.label', defaultMessage: 'Price' });
  const selectCategory = (id: number | null) => changeParams({ category: id ? String(id) : null });

  return (
    <div className="store-page shop-page">
      <aside className="shop-sidebar">{categories.data && <CategoryNav categories={categories.data.categories} selected={categoryId} onSelect={selectCategory} />}</aside>
      <section className="shop-main" aria-label={intl.formatMessage({ id: 'shop.products', defaultMessage: 'Products' })}>
        <header className="shop-header">
          <h1>{category?.name ?? intl.formatMessage({ id: 'nav.shop', defaultMessage: 'Shop' })}</h1>
          <InputGroup
            className="shop-search"
            type="search"
            leftIcon="search"
            placeholder={intl.formatMessage({ id: 'shop.search.placeholder', defaultMessage: 'Search cards, albums and collections' })}
            aria-label={intl.formatMessage({ id: 'shop.search.label', defaultMessage: 'Search products' })}
            value={text}
            onValueChange={setText}
          />
          <div className="shop-filters">
            <label>
              <span aria-hidden="true">{sortBy}</span>
              <HTMLSelect aria-label={sortBy} value={sort?.param ?? 'name'} onChange={(event) => changeParams({ sort: event.currentTarget.value === 'name' ? null : event.currentTarget.value })} options={SORTS.map((s) => ({ value: s.param, label: intl.formatMessage(s.label) }))} />
            </label>
            <label>
              <span aria-hidden="true">{typeLabel}</span>
              <HTMLSelect
                aria-label={typeLabel}
                value={typeId ? String(typeId) : ''}
                onChange={(event) => changeParams({ type: event.currentTarget.value || null })}
                options={[{ value: '', label: intl.formatMessage({ id: 'shop.type.all', defaultMessage: 'All types' }) }, ...(types.data?.productTypes ?? []).map((t) => ({ value: String(t.id), label: productTypeName(intl, t.name) }))]}
              />
            </label>
            <label>
              <span aria-hidden="true">{priceLabel}</span>
              <HTMLSelect
                aria-label={priceLabel}
                value={price.value}
                onChange={(event) => {
                  const next = PRICES.find((p) => p.value === event.currentTarget.value) ?? PRICES[0]!;
                  changeParams({ min_price: next.min, max_price: next.max });
                }}
                options={PRICES.map((p) => ({ value: p.value, label: p.label(intl) }))}
              />
            </label>
            <Checkbox className="shop-on-sale" label={intl.formatMessage({ id: 'shop.onSale', defaultMessage: 'On sale' })} checked={onSale} onChange={(event) => changeParams({ on_sale: event.currentTarget.checked ? '1' : null })} />
          </div>
        </header>
        {connection && (
          <p className="shop-count muted" aria-live="polite">
            {query ? (
              <FormattedMessage id="shop.countFor" defaultMessage="{count, plural, one {# product for “{query}”} other {# products for “{query}”}}" values={{ count: connection.totalCount, query }} />
            ) : (
              <FormattedMessage id="shop.count" defaultMessage="{count, plural, one {# product} other {# products}}" values={{ count: connection.totalCount }} />
            )}
          </p>
        )}
        {products.error && !connection ? (
          <Callout intent="danger" title={intl.formatMessage({ id: 'shop.error.title', defaultMessage: 'The shop could not be loaded' })}>
            <p>{products.error.message}</p>
            <Button text={intl.formatMessage({ id: 'common.tryAgain', defaultMessage: 'Try again' })} onClick={() => void products.refetch()} />
          </Callout>
        ) : !connection ? (
          <Spinner className="store-state" />
        ) : connection.edges.length === 0 ? (
          <EmptyState
            className="store-state"
            icon="search"
            title={intl.formatMessage({ id: 'shop.empty.title', defaultMessage: 'Nothing found' })}
            description={
              query
                ? category
                  ? intl.formatMessage({ id: 'shop.empty.noMatchIn', defaultMessage: 'No product matches “{query}” in {category}.' }, { query, category: category.name })
                  : intl.formatMessage({ id: 'shop.empty.noMatch', defaultMessage: 'No product matches “{query}”.' }, { query })
                : intl.formatMessage({ id: 'shop.empty.category', defaultMessage: 'There is nothing in this category yet.' })
            }
            action={query || categoryId ? <Button text={intl.formatMessage({ id: 'shop.empty.showAll', defaultMessage: 'Show everything' })} onClick={() => { setText(''); selectCategory(null); }} /> : undefined}
          />
        ) : (
          <>
            <div className="product-grid">
              {connection.edges.map(({ node }, index) => (
                <ProductTile key={node.id} product={node} priority={index < FIRST_IN_VIEW} typeName={typeName(node.productTypeId)} />
              ))}
            </div>
            {connection.pageInfo.hasNextPage && (
              <div className="shop-more">
                <Button
                  text={intl.formatMessage({ id: 'shop.loadMore', defaultMessage: 'Load more' })}
                  loading={products.loading}
                  onClick={() => void products.fetchMore({ variables: { after: connection.pageInfo.endCursor } })}
                />
              </div>
            )}
          </>
        )}
      </section>
    </div>
  );
}
