/** The scopes a key may be given, with what each lets an integration do (the server checks the list). */
export const API_KEY_SCOPES = [
  { scope: 'catalogue:read', label: 'Read the catalogue', help: 'Products (drafts too), categories and product types.' },
  { scope: 'catalogue:write', label: 'Change the catalogue', help: 'Create, edit and delete products, categories and product types.' },
  { scope: 'orders:read', label: 'Read orders', help: 'Search orders and read them in full, and export them.' },
  { scope: 'orders:write', label: 'Act on orders', help: 'Notes, resent cards and receipts, retried e-mails, refunds.' },
  { scope: 'customers:read', label: 'Read customers', help: 'The customer accounts with their order figures.' },
] as const;

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number]['scope'];
