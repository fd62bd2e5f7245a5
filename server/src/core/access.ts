import { Extensions } from 'type-graphql';
import { API_SCOPES, type ApiScope } from '../rules/index.js';
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

/**
 * What an API key may be given (contract section 19; the shared rules list them with what each
 * allows). A key is not a user: it may call exactly the operations that name one of its scopes
 * beside their access rule, and nothing else.
 */
export { API_SCOPES, type ApiScope };

export const ACCESS_EXTENSION = 'access';
export const SCOPES_EXTENSION = 'scopes';

/**
 * Declares who may call a GraphQL query or mutation, and the API key scopes that also allow it (an
 * operation that names no scope is refused to every key).
 */
export const Allow = (access: Access, ...scopes: ApiScope[]) => Extensions({ [ACCESS_EXTENSION]: access, [SCOPES_EXTENSION]: scopes });

export interface StorefrontGate {
  /** Throws UNDER_CONSTRUCTION unless the storefront is open to this caller. */
  assertStorefrontOpen(ctx: RequestContext): Promise<void>;
}

/**
 * The single check both the GraphQL guard and the REST routes run before an operation. A request
 * signed with an API key is judged by the key alone: refused (401) when the key is unknown or
 * revoked, whatever the operation; allowed when the operation names one of the key's scopes,
 * FORBIDDEN otherwise. Everyone else is judged by the access rule.
 */
export async function authorize(ctx: RequestContext, access: Access, gate: StorefrontGate, scopes: readonly ApiScope[] = []): Promise<void> {
  if (ctx.usesApiKey) {
    const key = (await ctx.requireViewer()).apiKey;
    if (!key || !scopes.some((scope) => key.scopes.includes(scope))) throw forbidden("This API key's scopes do not allow this operation.");
    return;
  }
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
