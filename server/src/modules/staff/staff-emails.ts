import { html } from '../../core/html.js';
import { button, heading, paragraph, renderEmail, type MailContent } from '../mail/templates/layout.js';

/** The invitation to join the shop's staff, with its single-use link. */
export function staffInvitationEmail(input: { to: string; role: string; link: string; invitedBy: string | null; expiresAt: Date }): Promise<MailContent> {
  const what = input.role === 'admin' ? 'an admin' : 'a member of staff';
  const by = input.invitedBy ? `${input.invitedBy} invited you` : 'You are invited';
  const until = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(input.expiresAt);
  return renderEmail({
    to: input.to,
    subject: 'You are invited to help run Art & Song Cards',
    preview: `${by} to join Art & Song Cards as ${what}.`,
    body: html`${heading('Join the Art & Song Cards team')}
${paragraph(`${by} to join Art & Song Cards as ${what}. Choose a username and a password to create your account.`)}
${button('Accept the invitation', input.link)}
${paragraph(`The link works once, until ${until}. Or paste this address into your browser: ${input.link}`, { quiet: true })}`,
    text: `${by} to join Art & Song Cards as ${what}.\n\nAccept the invitation (the link works once, until ${until}):\n${input.link}`,
  });
}
