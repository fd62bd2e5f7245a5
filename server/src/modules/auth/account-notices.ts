import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Whether the purchaser of an order still wants its "opened" notices: not when the order's account
 * turned them off (Account settings), nor when the purchaser deleted their account (the order's
 * address is erased). A guest order follows its checkout's box alone.
 */
export async function wantsOpenedNotices(em: EntityManager, order: { purchaserEmail: string; user?: { id: number } | null }): Promise<boolean> {
  if (!order.purchaserEmail) return false;
  const userId = order.user?.id;
  if (!userId) return true;
  const [row] = await em.execute<{ notify_opened: boolean }[]>('select "notify_opened" from "app_user" where "id" = ?', [userId]);
  return row?.notify_opened ?? true;
}
