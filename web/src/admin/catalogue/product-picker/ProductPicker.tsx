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

/** Whether every word typed is in the product's name or SKU (any case). */
function namesTyped(product: FoundProduct, typed: string): boolean {
  const haystack = `${product.name} ${product.sku ?? ''}`.toLowerCase();
  return typed.toLowerCase().split(/\s+/).every((word) => haystack.includes(word));
}

/**
 * Products to choose (a sale's, a discount code's): a multi-select that searches every product (drafts
 * and archived too) on the server by name or SKU as the owner types; choosing a chosen one again takes it out.
 */
export function ProductPicker({ id, value, onChange, intent, named = [] }: { id: string; value: number[]; onChange: (ids: number[]) => void; intent: Intent; named?: readonly { id: number; name: string }[] }) {
  const [query, setQuery] = useState('');
  const search = useDebounced(query.trim(), 200);
  const { data, previousData, loading } = useQuery(ProductPickerSearchQuery, { variables: { query: search || null }, fetchPolicy: 'cache-and-network' });
  // Names of the products chosen (the sale's own, read with it, and those chosen in this dialog), so their tags need no request of their own.
  const [names, setNames] = useState<Map<number, string>>(() => new Map(named.map((product) => [product.id, product.name])));
  // While the search for what was just typed is on its way, the last answer stays, narrowed to what the typed words name: the list never empties or jumps under the pointer.
  const found: FoundProduct[] = (data ?? previousData)?.adminProducts.edges.map((edge) => edge.node) ?? [];
  const stale = !data || query.trim() !== search;
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
      // The server searched; an answer to an earlier search is narrowed here until the new one comes.
      itemListPredicate={(typed, list) => (stale ? list.filter((product) => namesTyped(product, typed)) : list)}
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
