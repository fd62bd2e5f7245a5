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

/** The signed-in caller: the user and the session (token id) the request came with. */
export interface Viewer<U extends ViewerUser = ViewerUser> {
  user: U;
  jti: string;
}

export const isAdminViewer = (viewer: Viewer | null | undefined): boolean => viewer?.user.role === Role.ADMIN;

/** Whether the caller works for the shop: an admin or staff (Orders, Customers, Sales). */
export const isStaffViewer = (viewer: Viewer | null | undefined): boolean => viewer?.user.role === Role.ADMIN || viewer?.user.role === Role.STAFF;
