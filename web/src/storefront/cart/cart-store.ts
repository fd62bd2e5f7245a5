import { useSyncExternalStore } from 'react';
import { addLine, dropProducts, parseCart, removeLine, replacePersonalisation, setQuantity, type CartLine, type CardPersonalisation } from './cart-lines';

const KEY = 'cart';
const listeners = new Set<() => void>();
/**
 * An empty cart, always this one array: what the server draws a page with, and what the browser
 * reads while the cart is empty. React then sees nothing changed after hydrating a page and draws
 * nothing again.
 */
const EMPTY: CartLine[] = [];
let cache: { json: string | null; lines: CartLine[] } = { json: null, lines: EMPTY };

function snapshot(): CartLine[] {
  const json = localStorage.getItem(KEY);
  if (json !== cache.json) {
    const lines = parseCart(json);
    cache = { json, lines: lines.length ? lines : EMPTY };
  }
  return cache.lines;
}

function save(lines: CartLine[]): void {
  if (lines.length) localStorage.setItem(KEY, JSON.stringify(lines));
  else localStorage.removeItem(KEY);
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed the cart.
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const newLineId = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

/** The cart, kept in local storage: it survives reloads and follows changes made in other tabs. */
export const cart = {
  lines: snapshot,
  add(line: Omit<CartLine, 'id'>): CartLine {
    const added = { ...line, id: newLineId() };
    save(addLine(snapshot(), added));
    return added;
  },
  setQuantity: (id: string, quantity: number) => save(setQuantity(snapshot(), id, quantity)),
  setPersonalisation: (id: string, personalisation: CardPersonalisation) => save(replacePersonalisation(snapshot(), id, personalisation)),
  remove: (id: string) => save(removeLine(snapshot(), id)),
  /** Removes the lines of products that are gone; returns their names. */
  drop(productIds: number[]): string[] {
    const { lines, dropped } = dropProducts(snapshot(), productIds);
    if (dropped.length) save(lines);
    return dropped;
  },
  clear: () => save([]),
};

export function useCartLines(): CartLine[] {
  return useSyncExternalStore(subscribe, snapshot, () => EMPTY);
}

/** One line of the cart (a card being changed), or undefined: a screen that shows one line is drawn again only when that line changes. */
export function useCartLine(lineId: string | null, productId: number): CartLine | undefined {
  return useSyncExternalStore(
    subscribe,
    () => (lineId ? snapshot().find((line) => line.id === lineId && line.productId === productId) : undefined),
    () => undefined,
  );
}
