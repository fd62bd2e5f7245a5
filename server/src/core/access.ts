import { Extensions } from 'type-graphql';
import type { RequestContext } from './context.js';
import { forbidden } from './errors.js';
import { isStaffViewer } from './viewer.js';

/**
 * Who may call an operation. Every GraphQL root field and every REST route states one; an operation
 * that states nothing is refused (deny by default).
 * - public: anyone, always (auth, settings, uploaded files).
 * - storefront: anyone, but while the site is under construction only a signed-in admin.
 * - user: any signed-in user.
 * - staff: the shop's people: admins and staff (Orders, Customers, Sales).
 * - admin: signed-in admins only.
 */
export type Access = 'public' | 'storefront' | 'user' | 'staff' | 'admin';

/** Every access rule, least demanding first. */
export const ACCESS_RULES: readonly Access[] = ['public', 'storefront', 'user', 'staff', 'admin'];

export const ACCESS_EXTENSION = 'access';

/** Declares who may call a GraphQL query or mutation. */
export const Allow = (access: Access) => Extensions({ [ACCESS_EXTENSION]: access });

export interface StorefrontGate {
  /** Throws UNDER_CONSTRUCTION unless the storefront is open to this caller. */
  assertStorefrontOpen(ctx: RequestContext): Promise<void>;
}

/** The single check both the GraphQL guard and the REST routes run before an operation. */
export async function authorize(ctx: RequestContext, access: Access, gate: StorefrontGate): Promise<void> {
  switch (access) {
    case 'public':
      return;
    case 'storefront':
      return gate.assertStorefrontOpen(ctx);
    case 'user':
      await ctx.requireViewer();
      return;
    case 'staff': {
      if (!isStaffViewer(await ctx.requireViewer())) throw forbidden('Staff and admins only');
      return;
    }
    case 'admin': {
      await ctx.requireViewer();
      if (!(await ctx.isAdmin())) throw forbidden();
      return;
    }
    default:
      throw forbidden('This operation is not available.');
  }
}
