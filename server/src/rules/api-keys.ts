/**
 * API keys (contract section 19): what a key looks like, the scopes it may be given, and what each
 * scope lets it call. The server authorizes with this list, the console offers it, and /developers
 * documents it; the operations named here are exactly those that declare the scope beside their
 * access rule (tests/integration/api-keys.test.ts holds the two together).
 */

/** A key as the shop makes it: `ask_` and 32 letters and digits. */
export const API_KEY_PATTERN = /^ask_[A-Za-z0-9]{32}$/;

/** What an API key may be given. A key is not a user: it may call exactly the operations that name one of its scopes. */
export const API_SCOPES = ['catalogue:read', 'catalogue:write', 'orders:read', 'orders:write', 'customers:read'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export interface ApiScopeDoc {
  scope: ApiScope;
  /** What it is called in the console. */
  label: string;
  /** What it lets an integration do, in a sentence. */
  help: string;
  /** The REST routes that name it, as `METHOD /api/path` (Express's `:param`). */
  rest: readonly string[];
  /** The GraphQL queries and mutations that name it. */
  graphql: readonly string[];
}

export const API_SCOPE_DOCS: readonly ApiScopeDoc[] = [
  {
    scope: 'catalogue:read',
    label: 'Read the catalogue',
    help: 'Products (drafts too), categories and product types.',
    rest: ['GET /api/products/category/:id', 'GET /api/products/search', 'GET /api/products/:id', 'GET /api/admin/products', 'GET /api/categories/all', 'GET /api/product_types'],
    graphql: ['products', 'searchProducts', 'adminProducts', 'product', 'categories', 'productTypes'],
  },
  {
    scope: 'catalogue:write',
    label: 'Change the catalogue',
    help: 'Create, edit and delete products, categories and product types.',
    rest: [
      'POST /api/products',
      'PUT /api/products/:id',
      'DELETE /api/products/:id',
      'POST /api/admin/products/bulk',
      'POST /api/admin/products/bulk/:undoId/undo',
      'POST /api/categories',
      'PUT /api/categories/:id',
      'DELETE /api/categories/:id',
      'POST /api/product_types',
      'PUT /api/product_types/:id',
      'DELETE /api/product_types/:id',
    ],
    graphql: ['createProduct', 'updateProduct', 'deleteProduct', 'bulkUpdateProducts', 'undoBulkUpdateProducts', 'createCategory', 'updateCategory', 'deleteCategory', 'createProductType', 'updateProductType', 'deleteProductType'],
  },
  {
    scope: 'orders:read',
    label: 'Read orders',
    help: 'Search orders and read them in full, and export them.',
    rest: ['GET /api/admin/orders', 'GET /api/admin/orders.csv'],
    graphql: ['orders', 'order'],
  },
  {
    scope: 'orders:write',
    label: 'Act on orders',
    help: 'Notes, resent cards and receipts, retried e-mails, refunds.',
    rest: ['POST /api/admin/orders/:id/notes', 'POST /api/admin/orders/:id/refund'],
    graphql: ['addOrderNote', 'resendCardEmail', 'resendReceipt', 'retryEmail', 'refundOrder'],
  },
  {
    scope: 'customers:read',
    label: 'Read customers',
    help: 'The customer accounts with their order figures.',
    rest: ['GET /api/admin/customers', 'GET /api/admin/customers/:id'],
    graphql: ['customers', 'customer'],
  },
];
