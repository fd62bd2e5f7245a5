import { defineMessages } from 'react-intl';
import { addDays, collectUntilFault } from '@rules';
import { pageIntl } from '../../i18n/page-intl';
import type { CardPersonalisation } from '../cart/cart-lines';

/** The shopper's checks and defaults of "Make it a group card" (the shop checks again). */

export type GroupCardErrors = Partial<Record<'collectUntil' | 'deliveryDate' | 'recipients', string>>;

/** A group card's delivery is a later day: this many days ahead unless the shopper chose one. */
export const GROUP_CARD_DEFAULT_DAYS = 7;

/** When the card goes out: its delivery day (at its hour, else its start) in the browser's zone (null: now). */
export const deliveryStart = (deliveryDate: string | null, deliveryTime = '00:00'): Date | null => (deliveryDate ? new Date(`${deliveryDate}T${deliveryTime}`) : null);

/** A time for an `<input type="datetime-local">`: the browser's wall clock, to the minute. */
export function toLocalInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** What an `<input type="datetime-local">` holds, as ISO 8601 (null when it holds nothing). */
export function fromLocalInput(value: string): string | null {
  const at = value ? new Date(value) : null;
  return at && !Number.isNaN(at.getTime()) ? at.toISOString() : null;
}

/** The deadline offered at first: 18:00 the evening before the delivery day, or the delivery itself when that has passed. */
export function defaultCollectUntil(deliveryDate: string, now: Date): string {
  const start = deliveryStart(deliveryDate)!;
  const evening = new Date(start.getTime() - 6 * 60 * 60 * 1000);
  return (evening.getTime() > now.getTime() ? evening : start).toISOString();
}

/** The delivery day a group card starts with when the shopper had chosen "now". */
export const defaultGroupCardDay = (today: string): string => addDays(today, GROUP_CARD_DEFAULT_DAYS);

const PROBLEMS = defineMessages({
  recipients: { id: 'groupCard.problem.recipients', defaultMessage: 'A group card goes to one recipient: the whole group signs the one card.' },
  deliveryDate: { id: 'groupCard.problem.deliveryDate', defaultMessage: 'A group card needs a later day: the signatures are collected before it goes out.' },
  invalid: { id: 'groupCard.problem.collectUntilInvalid', defaultMessage: 'Give the date and time to collect signatures until (ISO 8601).' },
  past: { id: 'groupCard.problem.collectUntilPast', defaultMessage: 'Collect signatures until a time in the future.' },
  afterDelivery: { id: 'groupCard.problem.collectUntilAfterDelivery', defaultMessage: 'Signatures must be collected before the card is delivered.' },
});

/** The problems of a group card's choices, by field, in the page's language (empty when it is none or all is well). */
export function groupCardErrors(p: CardPersonalisation, now: Date): GroupCardErrors {
  if (!p.groupCard) return {};
  const intl = pageIntl();
  if (p.recipients.length !== 1) return { recipients: intl.formatMessage(PROBLEMS.recipients) };
  const start = deliveryStart(p.deliveryDate, p.deliveryTime);
  if (!start) return { deliveryDate: intl.formatMessage(PROBLEMS.deliveryDate) };
  const fault = collectUntilFault(new Date(p.groupCard.collectUntil), start, now);
  return fault ? { collectUntil: intl.formatMessage(PROBLEMS[fault]) } : {};
}
