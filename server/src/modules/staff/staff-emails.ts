import { DEFAULT_SHOP_IDENTITY, drop, button, heading, mjml, paragraph, renderEmail, type MailQueue, type MailRef, type QueuedMail, type RenderEnv, type RenderOutcome, type MailContent, type ShopIdentity } from '../mail/index.js';
import { StaffInvitation } from './staff-invitation.entity.js';

export const STAFF_INVITATION_KIND = 'staff-invitation';

/** What an invitation's job carries: the link holds the token, so it is erased once the e-mail went out. */
export interface InvitationPayload {
  invitationId: number;
  role: string;
  link?: string;
  invitedBy: string | null;
  expiresAt: string;
}

/** The invitation to join the shop's staff, with its single-use link. */
export function staffInvitationEmail(input: { to: string; role: string; link: string; invitedBy: string | null; expiresAt: Date }, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const what = input.role === 'admin' ? 'an admin' : 'a member of staff';
  const by = input.invitedBy ? `${input.invitedBy} invited you` : 'You are invited';
  const until = new Intl.DateTimeFormat('en-GB', { timeZone: shop.timeZone, day: 'numeric', month: 'long', year: 'numeric' }).format(input.expiresAt);
  return renderEmail({
    to: input.to,
    subject: `You are invited to help run ${shop.name}`,
    preview: `${by} to join ${shop.name} as ${what}.`,
    body: mjml`${heading(`Join the ${shop.name} team`)}
${paragraph(`${by} to join ${shop.name} as ${what}. Choose a username and a password to create your account.`)}
${button('Accept the invitation', input.link)}
${paragraph(`The link works once, until ${until}. Or paste this address into your browser: ${input.link}`, { quiet: true })}`,
    text: `${by} to join ${shop.name} as ${what}.\n\nAccept the invitation (the link works once, until ${until}):\n${input.link}`,
    shop,
  });
}

export const invitationRef = (id: number): MailRef => ({ kind: STAFF_INVITATION_KIND, id });

/** Registers the invitation e-mail: an invitation withdrawn, replaced, accepted or expired before it went out is not sent. */
export function registerStaffEmails(mail: MailQueue): void {
  mail.register<InvitationPayload>({
    kind: STAFF_INVITATION_KIND,
    eraseWhenSent: ['link'],
    async render(jobs: readonly QueuedMail<InvitationPayload>[], { em, now, shop }: RenderEnv): Promise<RenderOutcome[]> {
      const ids = jobs.map((job) => job.payload.invitationId);
      const open = new Set((await em.find(StaffInvitation, { id: { $in: ids }, acceptedAt: null, expiresAt: { $gt: now } }, { fields: ['id'] })).map((row) => row.id));
      return Promise.all(
        jobs.map((job) =>
          open.has(job.payload.invitationId) && job.payload.link && job.to
            ? staffInvitationEmail({ to: job.to, role: job.payload.role, link: job.payload.link, invitedBy: job.payload.invitedBy, expiresAt: new Date(job.payload.expiresAt) }, shop)
            : drop(),
        ),
      );
    },
  });
}
