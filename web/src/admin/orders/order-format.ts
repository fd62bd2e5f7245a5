import type { Intent } from '@blueprintjs/core';
import type { OrderStatus } from '../../apollo/generated/graphql';

export const STATUS_INTENT: Record<OrderStatus, Intent> = { PENDING: 'none', PAID: 'primary', DELIVERED: 'success', PARTIALLY_REFUNDED: 'warning', CANCELLED: 'warning', REFUNDED: 'danger' };

export const statusLabel = (status: OrderStatus) => status.toLowerCase().replace(/_/g, ' ');

export const money = (amount: string) => `$${Number(amount).toFixed(2)}`;

export const dateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
