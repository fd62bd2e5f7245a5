import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { MenuItem, type Intent } from '@blueprintjs/core';
import { MultiSelect, type ItemRenderer } from '@blueprintjs/select';
import '@blueprintjs/select/lib/css/blueprint-select.css';
import { useDebounced } from '../../../storefront/common/use-debounced';
import { money } from '../../orders/order-format';
import { ProductPickerNameQuery, ProductPickerSearchQuery } from './product-picker-operations';

interface FoundProduct {
  id: number;
  name: string;
  sku?: string | null;
  status?: string;
  regularPrice?: string;
}

/** A chosen product's tag: its name, read once (a product a search brought is already in the cache). */
function ProductName({ id, known }: { id: number; known?: string }) {
  const { data } = useQuery(ProductPickerNameQuery, { variables: { id }, skip: known !== undefined });
  return <>{known ?? data?.product.name ?? `Product ${id}`}</>;
}

/**
 * Products to choose (a sale's, a discount code's): a multi-select that searches every product (drafts
 * and archived too) on the server by name or SKU as the owner types; choosing a chosen one again takes it out.
 */
export function ProductPicker({ id, value, onChange, intent, named = [] }: { id: string; value: number[]; onChange: (ids: number[]) => void; intent: Intent; named?: readonly { id: number; name: string }[] }) {
  const [query, setQuery] = useState('');
  const search = useDebounced(query.trim(), 200);
  const { data, loading } = useQuery(ProductPickerSearchQuery, { variables: { query: search || null }, fetchPolicy: 'cache-and-network' });
  // Names of the products chosen (the sale's own, read with it, and those chosen in this dialog), so their tags need no request of their own.
  const [names, setNames] = useState<Map<number, string>>(() => new Map(named.map((product) => [product.id, product.name])));
  const found: FoundProduct[] = data?.adminProducts.edges.map((edge) => edge.node) ?? [];
  const chosen: FoundProduct[] = value.map((productId) => ({ id: productId, name: names.get(productId) ?? '' }));

  const toggle = (product: FoundProduct) => {
    if (value.includes(product.id)) {
      onChange(value.filter((other) => other !== product.id));
      return;
    }
    setNames((map) => new Map(map).set(product.id, product.name));
    onChange([...value, product.id]);
  };

  const renderItem: ItemRenderer<FoundProduct> = (product, { handleClick, handleFocus, modifiers }) =>
    modifiers.matchesPredicate ? (
      <MenuItem
        key={product.id}
        roleStructure="listoption"
        selected={value.includes(product.id)}
        active={modifiers.active}
        text={product.name}
        label={[product.status && product.status !== 'ACTIVE' ? product.status.toLowerCase() : null, product.sku, product.regularPrice ? money(product.regularPrice) : null].filter(Boolean).join(' · ')}
        onClick={handleClick}
        onFocus={handleFocus}
      />
    ) : null;

  return (
    <MultiSelect<FoundProduct>
      fill
      items={found}
      selectedItems={chosen}
      itemRenderer={renderItem}
      itemsEqual="id"
      // The server already searched.
      itemListPredicate={(_query, list) => list}
      onItemSelect={toggle}
      onRemove={(product) => onChange(value.filter((other) => other !== product.id))}
      onClear={value.length ? () => onChange([]) : undefined}
      tagRenderer={(product) => <ProductName id={product.id} known={product.name || undefined} />}
      query={query}
      onQueryChange={setQuery}
      resetOnSelect
      placeholder="Search products by name or SKU…"
      noResults={<MenuItem disabled roleStructure="listoption" text={loading ? 'Searching…' : search ? `No product matches “${search}”.` : 'No products yet.'} />}
      popoverProps={{ minimal: true, matchTargetWidth: true }}
      tagInputProps={{ inputProps: { id }, intent: intent === 'danger' ? 'danger' : 'none', tagProps: { minimal: true } }}
    />
  );
}
