import type { ApolloClient, DocumentNode } from '@apollo/client';
import { BlogPostQuery, BlogPostsQuery } from '../blog/blog-operations';
import { StoreProductQuery } from '../storefront/product/product-operations';
import { ShopCategoriesQuery, ShopProductsQuery } from '../storefront/shop/shop-operations';
import { authStore } from '../auth/auth-store';
import { settingsStore } from '../settings/settings-store';
import { shopStore, type ShopLookInput } from '../settings/shop-store';

/**
 * The data the server writes into a page (`<script type="application/json" id="initial-state">`,
 * see gateway/src/initial-state.ts): the settings as an anonymous visitor sees them, and the
 * results of the page's first queries. Written into the stores before the first render, so the
 * first screen paints without waiting for the network.
 */
export interface InitialState {
  settings?: { underConstructionMode: boolean; isAdmin: boolean };
  /** The shop's name, logo and announcement, as everyone sees them. */
  shop?: ShopLookInput;
  queries?: { operationName: string; variables: Record<string, unknown>; data: unknown }[];
}

/** The operations a page may carry, by name (the server sends nothing else). */
const DOCUMENTS: Record<string, DocumentNode> = {
  ShopCategories: ShopCategoriesQuery,
  ShopProducts: ShopProductsQuery,
  StoreProduct: StoreProductQuery,
  BlogPosts: BlogPostsQuery,
  BlogPost: BlogPostQuery,
};

let settingsFromPage = false;

/** Whether the route guard may skip its first settings request: the page brought them, for this (anonymous) visitor. */
export function settingsCameWithPage(): boolean {
  const result = settingsFromPage;
  settingsFromPage = false;
  return result;
}

export function readInitialState(doc: Document = document): InitialState | null {
  const element = doc.getElementById('initial-state');
  if (!element?.textContent) return null;
  element.remove();
  try {
    return JSON.parse(element.textContent) as InitialState;
  } catch {
    return null;
  }
}

export function applyInitialState(client: ApolloClient, state: InitialState | null): void {
  if (!state) return;
  applySettings(state);
  for (const query of state.queries ?? []) writeInitialQuery(client, query);
}

/**
 * The same as applyInitialState, each query written in a task of its own (`pause` between them):
 * writing a page's data into the cache is costly for a phone the first time, and done in one
 * piece it would hold the main thread as long as all of them together.
 */
export async function applyInitialStateInSteps(client: ApolloClient, state: InitialState | null, pause: () => Promise<void>): Promise<void> {
  if (!state) return;
  applySettings(state);
  for (const query of state.queries ?? []) {
    await pause();
    writeInitialQuery(client, query);
  }
}

function applySettings(state: InitialState): void {
  // A signed-in visitor's settings differ (admin, or the shop closed to others): those are fetched with the token.
  if (state.settings && !authStore.getState().token) {
    settingsStore.setSettings(state.settings);
    settingsFromPage = true;
  }
  // A page the server drew shows these settings to an anonymous visitor: hydration starts from the same view.
  if (state.settings) settingsStore.setPageSettings(state.settings);
  // The same for every visitor: the header and the announcement bar are drawn from it, on the server and when hydrating.
  if (state.shop) shopStore.setPageShop(state.shop);
}

function writeInitialQuery(client: ApolloClient, query: NonNullable<InitialState['queries']>[number]): void {
  const document = DOCUMENTS[query.operationName];
  if (!document) return;
  try {
    client.writeQuery({ query: document, variables: query.variables, data: query.data as never });
  } catch (error) {
    console.warn(`Initial data of ${query.operationName} was not usable`, error);
  }
}
