import type { User } from './user.entity.js';

/** A new account as the shop's webhook events show it (customer.created): who, never how they sign in. */
export function customerEventData(user: Pick<User, 'id' | 'username' | 'email' | 'createdAt'>): Record<string, unknown> {
  return { customer: { id: user.id, username: user.username, email: user.email, created_at: user.createdAt.toISOString() } };
}
