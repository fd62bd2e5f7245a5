import { useQuery } from '@apollo/client/react';
import { Checkbox, FormGroup, InputGroup, Spinner } from '@blueprintjs/core';
import { ProductPicker } from '../catalogue/product-picker/ProductPicker';
import { DiscountCategoriesQuery } from './discounts-operations';

/** A code's rules as the dialog edits them. */
export interface DiscountRules {
  productIds: number[];
  categoryIds: number[];
  minSubtotal: string;
  oncePerCustomer: boolean;
  firstOrderOnly: boolean;
}

/** The categories in tree order with their depth (a subcategory under its parent). */
function treeOrder(categories: readonly { id: number; name: string; parentId?: number | null }[]) {
  const children = new Map<number | null, typeof categories[number][]>();
  for (const category of categories) {
    const key = category.parentId ?? null;
    children.set(key, [...(children.get(key) ?? []), category]);
  }
  const rows: { id: number; name: string; depth: number }[] = [];
  const walk = (parent: number | null, depth: number) => {
    for (const category of [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name))) {
      rows.push({ id: category.id, name: category.name, depth });
      walk(category.id, depth + 1);
    }
  };
  walk(null, 0);
  return rows;
}

/** The rules of a code: the products and categories it is for, a minimum subtotal, once per customer, a first order only. */
export function DiscountRulesFields({ rules, onChange, help }: { rules: DiscountRules; onChange: (rules: DiscountRules) => void; help: (field: string) => string | undefined }) {
  const { data } = useQuery(DiscountCategoriesQuery, { fetchPolicy: 'cache-first' });
  const set = (changes: Partial<DiscountRules>) => onChange({ ...rules, ...changes });
  const intent = (field: string) => (help(field) ? 'danger' : 'none');
  const toggle = (id: number, on: boolean) => set({ categoryIds: on ? [...rules.categoryIds, id] : rules.categoryIds.filter((other) => other !== id) });
  return (
    <fieldset className="discount-rules">
      <legend>Rules</legend>
      <FormGroup label="Products" labelFor="discount-products" helperText={help('productIds') ?? 'With no products and no categories the code is for the whole order.'} intent={intent('productIds')}>
        <ProductPicker id="discount-products" value={rules.productIds} onChange={(productIds) => set({ productIds })} intent={intent('productIds')} />
      </FormGroup>
      <FormGroup label="Categories" helperText={help('categoryIds') ?? 'Each with its subcategories.'} intent={intent('categoryIds')}>
        <div className="discount-categories" role="group" aria-label="Categories">
          {!data ? <Spinner size={16} /> : treeOrder(data.categories).map((category) => (
            <Checkbox key={category.id} style={{ marginLeft: category.depth * 18 }} label={category.name} checked={rules.categoryIds.includes(category.id)} onChange={(event) => toggle(category.id, event.currentTarget.checked)} />
          ))}
        </div>
      </FormGroup>
      <FormGroup label="Minimum subtotal" labelFor="discount-min-subtotal" helperText={help('minSubtotal') ?? 'Empty: none'} intent={intent('minSubtotal')}>
        <InputGroup id="discount-min-subtotal" inputMode="decimal" value={rules.minSubtotal} onValueChange={(minSubtotal) => set({ minSubtotal })} intent={intent('minSubtotal')} leftElement={<span className="discount-unit">$</span>} />
      </FormGroup>
      <Checkbox label="Once per customer (by account or e-mail address)" checked={rules.oncePerCustomer} onChange={(event) => set({ oncePerCustomer: event.currentTarget.checked })} />
      <Checkbox label="First order only" checked={rules.firstOrderOnly} onChange={(event) => set({ firstOrderOnly: event.currentTarget.checked })} />
    </fieldset>
  );
}
