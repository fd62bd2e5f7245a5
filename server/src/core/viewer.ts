import type { ApiScope } from './access.js';

/**
 * Who is calling, as the core knows it: an id and a role. The auth module signs users in and hands
 * the core a `Viewer`; features that need the full user ask the auth module for it.
 */
export enum Role {
  ADMIN = 'admin',
  /** Shop staff: Orders (search, details, resends, refunds), Customers and Sales, nothing else. */
  STAFF = 'staff',
  CUSTOMER = 'customer',
}

/** The part of a signed-in user the core reads. */
export interface ViewerUser {
  id: number;
  role: Role;
  /** The user's name as the audit log records it (the auth module's users have one). */
  username?: string;
}

/** An API key calling: not a person, and allowed exactly its scopes (see authorize). */
export interface ApiKeyCaller {
  id: number;
  /** The name an admin gave it: what the audit log records its changes under. */
  name: string;
  scopes: readonly ApiScope[];
}

/**
 * The signed-in caller: the user and the session (token id) the request came with. A request signed
 * with an API key has `apiKey`, and a `user` that stands for the key (a customer's role, so that no
 * staff-only view opens to it; its id, below 0, is no user's; its username is the key's name).
 */
export interface Viewer<U extends ViewerUser = ViewerUser> {
  user: U;
  jti: string;
  apiKey?: ApiKeyCaller;
}

/** The viewer of a request signed with an API key. */
export const apiKeyViewer = (key: ApiKeyCaller): Viewer => ({
  user: { id: -key.id, role: Role.CUSTOMER, username: key.name },
  jti: `api-key:${key.id}`,
  apiKey: key,
});

export const isAdminViewer = (viewer: Viewer | null | undefined): boolean => viewer?.user.role === Role.ADMIN;

/** Whether the caller works for the shop: an admin or staff (Orders, Customers, Sales). */
export const isStaffViewer = (viewer: Viewer | null | undefined): boolean => viewer?.user.role === Role.ADMIN || viewer?.user.role === Role.STAFF;

/** Whether the caller is an API key given `scope`. */
export const hasScope = (viewer: Viewer | null | undefined, scope: ApiScope): boolean => viewer?.apiKey?.scopes.includes(scope) ?? false;

/** Whether the caller sees orders in full (addresses, notes, timeline): admins, staff, and API keys with an orders scope. */
export const seesOrders = (viewer: Viewer | null | undefined): boolean => isStaffViewer(viewer) || hasScope(viewer, 'orders:read') || hasScope(viewer, 'orders:write');

/** Whether the caller sees products that are not on sale (drafts, archived): admins, and API keys with a catalogue scope. */
export const seesAllProducts = (viewer: Viewer | null | undefined): boolean => isAdminViewer(viewer) || hasScope(viewer, 'catalogue:read') || hasScope(viewer, 'catalogue:write');
