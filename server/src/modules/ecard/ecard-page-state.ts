import type pg from 'pg';
import { isLocale, MAX_REPLIES_PER_CARD } from '../../rules/index.js';
import type { CardSignature } from '../group-card/index.js';
import { OrderStatus, type CardDesign } from '../orders/index.js';
import type { EcardView } from './ecard-page.js';

/**
 * Everything a card's page shows, in one prepared statement: its item (names, message, design,
 * delivery), its order's status and language, how many thank-yous it has, a group card's signatures
 * in the order written, and its generation in `ecard_page` (-1: no row yet), read in the same snapshot
 * so that a drawing is stored only if nothing changed the card since (see ecard-pages.ts).
 */
const STATE = {
  name: 'ecard-page-state',
  text: `select i.name, i.recipient_name, i.sender_name, i.message, i.card, i.delivered_at, i.refunded_at, o.status, o.locale,
           (select count(*)::int from ecard_reply r where r.item_id = i.id) as replies,
           (select json_agg(json_build_object('name', s.name, 'message', s.message) order by s.created_at, s.id)
              from group_card g join group_card_signature s on s.group_card_id = g.id where g.item_id = i.id) as signatures,
           coalesce(p.generation, -1) as generation
         from order_item i join "order" o on o.id = i.order_id left join ecard_page p on p.item_url_uuid = i.item_url_uuid
         where i.item_url_uuid = $1`,
};

/** Pages drawn per read of the waiting list. */
export const WAITING_BATCH = 100;

/** The delivered cards showing a page that is not kept (after `$1`, in key order): what the drawer draws (ecard-pages.ts). */
export const WAITING = {
  name: 'ecard-pages-waiting',
  text: `select p.item_url_uuid::text as uuid from ecard_page p join order_item i on i.item_url_uuid = p.item_url_uuid join "order" o on o.id = i.order_id
         where p.br is null and p.item_url_uuid > $1 and i.delivered_at is not null and i.refunded_at is null and i.card is not null and o.status not in ('pending', 'cancelled', 'refunded')
         order by p.item_url_uuid limit ${WAITING_BATCH}`,
};

interface StateRow {
  name: string;
  recipient_name: string | null;
  sender_name: string | null;
  message: string | null;
  card: CardDesign | null;
  delivered_at: Date | null;
  refunded_at: Date | null;
  status: OrderStatus;
  locale: string;
  replies: number;
  signatures: CardSignature[] | null;
  generation: number;
}

/** What draws a card's page as its recipient opens it (not a preview), and the generation it was read at. */
export interface PageState {
  view: EcardView;
  repliesLeft: number;
  signatures: CardSignature[];
  generation: number;
}

/** Orders whose cards show no page (ecard.service.ts `open` refuses them alike). */
const HIDDEN = new Set<string>([OrderStatus.CANCELLED, OrderStatus.REFUNDED, OrderStatus.PENDING]);

/** The card's page state, or null when it shows no page (none, withdrawn, not paid): the route then answers as before. */
export async function pageStateOf(pool: pg.Pool, uuid: string): Promise<PageState | null> {
  const row = (await pool.query<StateRow>({ ...STATE, values: [uuid] })).rows[0];
  if (!row?.card || HIDDEN.has(row.status) || row.refunded_at) return null;
  const view: EcardView = {
    card: row.card,
    name: row.name,
    recipientName: row.recipient_name,
    senderName: row.sender_name,
    message: row.message,
    deliveredAt: row.delivered_at,
    itemUrlUuid: uuid,
    order: { locale: isLocale(row.locale) ? row.locale : 'en' },
  };
  return { view, repliesLeft: Math.max(0, MAX_REPLIES_PER_CARD - row.replies), signatures: row.signatures ?? [], generation: row.generation };
}
