import type { EntityManager } from '@mikro-orm/postgresql';
import { defineMessages } from '@formatjs/intl';
import { SIGNING_REMINDER_BEFORE_MS, signingPath } from '../../rules/index.js';
import { DEFAULT_SHOP_IDENTITY, drop, withhold, formatMoment, button, heading, mjml, paragraph, renderEmail, type MailQueue, type MailRef, type QueuedMail, type RenderEnv, type RenderOutcome, type MailContent, type ShopIdentity, wordsFor } from '../mail/index.js';
import { orderRef, senderOf, type OrderItem } from '../orders/index.js';
import { GroupCard, GroupCardInvitation } from './group-card.entity.js';
import { signingStatus, SigningStatus } from './group-card-status.js';
import type { GroupCardMailHooks } from './group-card-owner.service.js';

/** The kinds of e-mail group cards send, both to invited addresses (people who may never have used the shop). */
export const GroupCardMailKind = {
  /** "Sign the card for {recipient}": one per invited address. */
  INVITATION: 'group-card-invitation',
  /** The one reminder, 24 hours before the deadline, to an invited address that has not signed. */
  REMINDER: 'group-card-reminder',
} as const;

/** Every kind that goes to someone who is not the shop's customer (List-Unsubscribe belongs on these; contract section 11). */
export const GROUP_CARD_RECIPIENT_KINDS: readonly string[] = Object.values(GroupCardMailKind);

interface InvitationPayload {
  invitationId: number;
}

/** Why an invitation was not sent (admins and the purchaser see it). */
export const NOT_SENT_WITHDRAWN = 'Not sent: the card was withdrawn.';
export const NOT_SENT_CLOSED = 'Not sent: signing had closed.';

const invitationRef = (invitationId: number): MailRef => ({ kind: 'group-card-invitation', id: invitationId });

/** The signing link an invitation carries: it tells which invited address signed (`?invite=`). */
const signingLink = (baseUrl: string, card: GroupCard, invitation: GroupCardInvitation) => `${baseUrl}${signingPath(card.signingToken)}?invite=${invitation.code}`;

interface Invited {
  invitation: GroupCardInvitation;
  card: GroupCard;
  item: OrderItem;
}

const messages = defineMessages({
  someoneSpecial: { id: 'mail.groupCard.someoneSpecial', defaultMessage: 'someone special' },
  invitationSubject: { id: 'mail.groupCard.invitation.subject', defaultMessage: '{from} invites you to sign a card for {recipient}' },
  invitationPreview: { id: 'mail.groupCard.invitation.preview', defaultMessage: 'Add your message to the card for {recipient} before {until}.' },
  invitationHeading: { id: 'mail.groupCard.invitation.heading', defaultMessage: 'Sign the card for {recipient}' },
  invitationBody: { id: 'mail.groupCard.invitation.body', defaultMessage: '{from} is collecting messages for {recipient} on one card, <b>{card}</b>, and would like yours on it too.' },
  invitationBodyText: { id: 'mail.groupCard.invitation.bodyText', defaultMessage: '{from} is collecting messages for {recipient} on one card, {card}, and would like yours on it too.' },
  invitationWrite: { id: 'mail.groupCard.invitation.write', defaultMessage: "Write your name and a few words before {until}; everyone's messages are inside the card when {recipient} opens it." },
  invitationWhy: { id: 'mail.groupCard.invitation.why', defaultMessage: 'You are getting this e-mail because {from} invited this address; we send it once, and one reminder a day before signing closes if you have not signed.' },
  paste: { id: 'mail.groupCard.paste', defaultMessage: 'Or paste this address into your browser: {link}.' },
  sign: { id: 'mail.groupCard.sign', defaultMessage: 'Sign the card' },
  signText: { id: 'mail.groupCard.signText', defaultMessage: 'Sign the card: {link}' },
  reminderSubject: { id: 'mail.groupCard.reminder.subject', defaultMessage: 'A day left to sign the card for {recipient}' },
  reminderPreview: { id: 'mail.groupCard.reminder.preview', defaultMessage: 'Signing closes on {until}.' },
  reminderBody: { id: 'mail.groupCard.reminder.body', defaultMessage: '{from} invited you to sign <b>{card}</b> for {recipient}. Signing closes on {until}.' },
  reminderOnly: { id: 'mail.reminder.only', defaultMessage: 'This is the only reminder we send.' },
});

/** What an invitation and its reminder say of the card, in the language of the order that bought it. */
function invitedWords({ invitation, card, item }: Invited, baseUrl: string) {
  const locale = item.order?.locale;
  const words = wordsFor(locale);
  return {
    locale,
    words,
    from: senderOf(item, locale),
    recipient: item.recipientName ?? words.text(messages.someoneSpecial),
    until: formatMoment(card.collectUntil, item.timeZone, locale),
    link: signingLink(baseUrl, card, invitation),
  };
}

/** The invitation to sign, to an invited address. Names and messages are escaped (the `mjml` tag); the text part is plain. */
export function invitationEmail(invited: Invited, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const { locale, words, from, recipient, until, link } = invitedWords(invited, baseUrl);
  const name = invited.item.name;
  const subject = words.text(messages.invitationSubject, { from, recipient });
  const write = words.text(messages.invitationWrite, { until, recipient });
  const why = words.text(messages.invitationWhy, { from });
  return renderEmail({
    to: invited.invitation.email,
    subject,
    preview: words.text(messages.invitationPreview, { recipient, until }),
    body: mjml`${heading(words.text(messages.invitationHeading, { recipient }))}
${paragraph(words.html(messages.invitationBody, { from, recipient, card: name }))}
${paragraph(write)}
${button(words.text(messages.sign), link)}
${paragraph(`${words.text(messages.paste, { link })} ${why}`, { quiet: true })}`,
    text: `${words.text(messages.invitationBodyText, { from, recipient, card: words.quoted(name) })}\n\n${write}\n\n${words.text(messages.signText, { link })}\n\n${why}`,
    shop,
    locale,
  });
}

/** The one reminder, a day before the deadline, to an invited address that has not signed. */
export function signingReminderEmail(invited: Invited, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const { locale, words, from, recipient, until, link } = invitedWords(invited, baseUrl);
  const name = invited.item.name;
  const subject = words.text(messages.reminderSubject, { recipient });
  const only = words.text(messages.reminderOnly);
  return renderEmail({
    to: invited.invitation.email,
    subject,
    preview: words.text(messages.reminderPreview, { until }),
    body: mjml`${heading(subject)}
${paragraph(words.html(messages.reminderBody, { from, card: name, recipient, until }))}
${button(words.text(messages.sign), link)}
${paragraph(`${words.text(messages.paste, { link })} ${only}`, { quiet: true })}`,
    text: `${words.text(messages.reminderBody, { from, card: words.quoted(name), recipient, until })}\n\n${words.text(messages.signText, { link })}\n\n${only}`,
    shop,
    locale,
  });
}

export interface GroupCardEmailsOptions {
  mail: MailQueue;
  baseUrl: string;
  clock: () => Date;
}

/**
 * The group card's e-mails through the shop's mail queue: one invitation per invited address, and one
 * reminder 24 hours before the deadline to those who have not signed by then. Each is decided again
 * when it is sent: a withdrawn card's invitations are withheld with the reason, a reminder no longer
 * needed (signed, closed) is dropped.
 */
export class GroupCardEmails implements GroupCardMailHooks {
  constructor(private readonly options: GroupCardEmailsOptions) {
    options.mail.register<InvitationPayload>({ kind: GroupCardMailKind.INVITATION, render: (jobs, env) => this.render(jobs, env, 'invitation') });
    options.mail.register<InvitationPayload>({
      kind: GroupCardMailKind.REMINDER,
      render: (jobs, env) => this.render(jobs, env, 'reminder'),
      settle: (em, jobs, now) => this.settleReminders(em, jobs, now),
    });
  }

  /** New invitations (in the transaction that writes them): one e-mail each, due now, and each one's reminder. */
  async invited(em: EntityManager, card: GroupCard, invitations: GroupCardInvitation[], now: Date): Promise<void> {
    const item = card.item;
    const jobs = invitations.map((invitation) => ({ kind: GroupCardMailKind.INVITATION, to: invitation.email, dueAt: now, payload: { invitationId: invitation.id }, subject: orderRef(item.order.id), ref: invitationRef(invitation.id) }));
    await this.options.mail.enqueueMany(em, [...jobs, ...this.reminders(card, invitations, now)]);
  }

  /**
   * The deadline moved (in the transaction that moves it): a reminder not sent yet moves with it, and
   * an invitation that had none (it came within the last day of the old deadline) gets one if there is
   * now a day to spare. An address is reminded once, whatever moves.
   */
  async deadlineMoved(em: EntityManager, card: GroupCard, now: Date): Promise<void> {
    const dueAt = new Date(card.collectUntil.getTime() - SIGNING_REMINDER_BEFORE_MS);
    const invited = await em.find(GroupCardInvitation, { groupCard: card.id }, { fields: ['id'] });
    if (invited.length) await this.options.mail.move(em, { refs: invited.map((invitation) => invitationRef(invitation.id)), kinds: [GroupCardMailKind.REMINDER] }, dueAt);
    const waiting = await em.find(GroupCardInvitation, { groupCard: card.id, remindedAt: null, signedAt: null });
    await this.options.mail.enqueueMany(em, this.reminders(card, waiting, now));
  }

  /** The reminders of some invitations, due a day before the deadline; none when that moment is already past. */
  private reminders(card: GroupCard, invitations: readonly GroupCardInvitation[], now: Date) {
    const dueAt = new Date(card.collectUntil.getTime() - SIGNING_REMINDER_BEFORE_MS);
    if (dueAt.getTime() <= now.getTime()) return [];
    return invitations.map((invitation) => ({
      kind: GroupCardMailKind.REMINDER,
      to: invitation.email,
      dueAt,
      payload: { invitationId: invitation.id },
      subject: orderRef(card.item.order.id),
      ref: invitationRef(invitation.id),
      // One reminder per invitation, ever.
      dedupeKey: `group-card-reminder:${invitation.id}`,
    }));
  }

  /** Renders a batch: its invitations with their cards, items and orders in one query, their signatures counted in one more. */
  private async render(jobs: readonly QueuedMail<InvitationPayload>[], { em, now, shop }: RenderEnv, what: 'invitation' | 'reminder'): Promise<RenderOutcome[]> {
    const ids = [...new Set(jobs.map((job) => Number(job.payload.invitationId)).filter(Number.isInteger))];
    const invitations = new Map((ids.length ? await em.find(GroupCardInvitation, { id: { $in: ids } }, { populate: ['groupCard', 'groupCard.item', 'groupCard.item.order'] }) : []).map((row) => [row.id, row]));
    const cardIds = [...new Set([...invitations.values()].map((invitation) => invitation.groupCard.id))];
    const counts = new Map<number, number>();
    if (cardIds.length) {
      const rows = await em.execute<{ group_card_id: number; n: string }[]>('select group_card_id, count(*) as n from group_card_signature where group_card_id in (select (jsonb_array_elements_text(?::jsonb))::int) group by group_card_id', [JSON.stringify(cardIds)]);
      for (const row of rows) counts.set(Number(row.group_card_id), Number(row.n));
    }
    return Promise.all(
      jobs.map(async (job): Promise<RenderOutcome> => {
        const invitation = invitations.get(Number(job.payload.invitationId));
        if (!invitation) return drop();
        const card = invitation.groupCard;
        const item = card.item;
        const status = signingStatus(card, item, counts.get(card.id) ?? 0, now);
        if (what === 'reminder') {
          // Not needed any more: signed, closed, withdrawn, full, or the deadline moved further off than a day.
          if (invitation.signedAt || invitation.remindedAt || status !== SigningStatus.OPEN || card.collectUntil.getTime() - now.getTime() > SIGNING_REMINDER_BEFORE_MS + 60_000) return drop();
        } else if (status === SigningStatus.WITHDRAWN) return withhold(NOT_SENT_WITHDRAWN);
        else if (status === SigningStatus.CLOSED) return withhold(NOT_SENT_CLOSED);
        const content = await (what === 'invitation' ? invitationEmail : signingReminderEmail)({ invitation, card, item }, this.options.baseUrl, shop);
        // Addresses that unsubscribed, and List-Unsubscribe, are the recipients' consent filter's (services.ts).
        return { subject: content.subject, text: content.text, html: content.html };
      }),
    );
  }

  /** Sent reminders are recorded on their invitations (My orders shows "reminded"). */
  private async settleReminders(em: EntityManager, jobs: readonly QueuedMail<InvitationPayload>[], now: Date): Promise<void> {
    const ids = jobs.map((job) => Number(job.payload.invitationId)).filter(Number.isInteger);
    if (ids.length) await em.nativeUpdate(GroupCardInvitation, { id: { $in: ids }, remindedAt: null }, { remindedAt: now });
  }
}

