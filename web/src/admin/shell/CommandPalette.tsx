import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { Button, MenuItem } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { Omnibar, type ItemRenderer } from '@blueprintjs/select';
import '@blueprintjs/select/lib/css/blueprint-select.css';
import { graphql } from '../../apollo/generated';
import { useDebounced } from '../../storefront/common/use-debounced';
import { type ConsoleRole, viewAddress, viewsFor } from './admin-views';

/** What the palette finds for a few typed letters: products (admins), orders by number or e-mail, customers. */
export const PaletteSearchQuery = graphql(`
  query PaletteSearch($query: String!, $products: Boolean!) {
    adminProducts(query: $query, first: 5) @include(if: $products) {
      edges {
        node {
          id
          name
          categoryId
          status
        }
      }
    }
    orders(search: $query, first: 5) {
      edges {
        node {
          id
          number
          purchaserEmail
        }
      }
    }
    customers(search: $query, first: 5) {
      edges {
        node {
          id
          username
          email
        }
      }
    }
  }
`);

/** One thing the palette can open, and the address it opens. */
export interface PaletteItem {
  key: string;
  kind: 'Screen' | 'Product' | 'Order' | 'Customer';
  label: string;
  detail?: string;
  icon: IconName;
  to: string;
}

/** A console screen's address: `/admindash?view=orders&order=…`. */
const consolePath = (params: Record<string, string>) => `/admindash?${new URLSearchParams(params)}`;

/**
 * The console's command palette (contract section 16): Ctrl+K or Cmd+K anywhere in the console finds a
 * screen by its name, a product, an order by its number (or its customer's e-mail) or a customer, and
 * opens it. Results come from the server as one types (staff are not offered products).
 */
export function CommandPalette({ role }: { role: ConsoleRole }) {
  const navigate = useNavigate();
  const [isOpen, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const typed = useDebounced(query.trim(), 200);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen((open) => !open);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const found = useQuery(PaletteSearchQuery, { variables: { query: typed, products: role === 'admin' }, skip: !isOpen || typed.length < 2 });

  const words = query.trim().toLowerCase();
  const screens: PaletteItem[] = viewsFor(role)
    .filter((view) => !words || view.label.toLowerCase().includes(words))
    .map((view) => ({ key: `screen:${view.id}`, kind: 'Screen', label: view.label, icon: view.icon, to: viewAddress(view.id, role) }));
  const data = typed.length >= 2 ? found.data : undefined;
  const items: PaletteItem[] = [
    ...screens,
    ...(data?.adminProducts?.edges ?? []).map(({ node }): PaletteItem => ({ key: `product:${node.id}`, kind: 'Product', label: node.name, detail: node.status === 'ACTIVE' ? undefined : node.status.toLowerCase(), icon: 'box', to: `/admindash/products/${node.id}` })),
    ...(data?.orders.edges ?? []).map(({ node }): PaletteItem => ({ key: `order:${node.id}`, kind: 'Order', label: `Order ${node.number}`, detail: node.purchaserEmail, icon: 'shopping-cart', to: consolePath({ view: 'orders', order: node.id }) })),
    ...(data?.customers.edges ?? []).map(({ node }): PaletteItem => ({ key: `customer:${node.id}`, kind: 'Customer', label: node.username, detail: node.email, icon: 'person', to: consolePath({ view: 'customers', customer: String(node.id) }) })),
  ];

  const renderItem: ItemRenderer<PaletteItem> = (item, { handleClick, handleFocus, modifiers }) =>
    modifiers.matchesPredicate ? <MenuItem key={item.key} icon={item.icon} text={item.label} label={[item.detail, item.kind].filter(Boolean).join(' · ')} active={modifiers.active} onClick={handleClick} onFocus={handleFocus} roleStructure="listoption" /> : null;

  return (
    <>
      <Button variant="minimal" icon="search" aria-label="Search the console (Ctrl+K)" title="Search the console (Ctrl+K)" onClick={() => setOpen(true)} />
      <Omnibar<PaletteItem>
      isOpen={isOpen}
      onClose={() => setOpen(false)}
      items={items}
      itemRenderer={renderItem}
      itemsEqual="key"
      // The server already searched; the screens were matched above.
      itemListPredicate={(_query, list) => list}
      query={query}
      onQueryChange={setQuery}
      onItemSelect={(item) => {
        setOpen(false);
        setQuery('');
        void navigate(item.to);
      }}
      noResults={<MenuItem disabled text={typed.length < 2 ? 'Type a screen, a product, an order number or a customer' : found.loading ? 'Searching…' : 'Nothing found'} roleStructure="listoption" />}
      inputProps={{ placeholder: 'Go to a screen, a product, an order or a customer…', 'aria-label': 'Search the console' }}
      resetOnSelect
      />
    </>
  );
}
