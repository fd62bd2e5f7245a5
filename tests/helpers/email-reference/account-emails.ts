/**
 * The account e-mails (password reset, address confirmation, change of address, address changed) in
 * the reference's way: MJML with strict validation for every e-mail, values escaped by the
 * reference's own `html`. Word for word what the shop sends today.
 */
import { html } from './escape.js';
import { utcMomentText } from './format.js';
import { button, heading, paragraph, renderEmail, type MailContent } from './layout.js';

/** "Reset your Art & Song Cards password": the link (1 hour, once). */
export function passwordResetEmail(to: string, username: string, link: string, expiresAt: Date): Promise<MailContent> {
  const until = utcMomentText(expiresAt);
  const why = 'You receive this e-mail because someone asked, on the Art & Song Cards sign-in page, for a link to reset the password of the account that uses this address. If it was not you, ignore it: your password stays as it is.';
  return renderEmail({
    to,
    subject: 'Reset your Art & Song Cards password',
    preview: 'A link to choose a new password; it works for an hour.',
    body: html`${heading('Reset your password')}
${paragraph(html`Choose a new password for your account <strong>${username}</strong>. Once it is set, every device signed in to your account is signed out.`)}
${button('Choose a new password', link)}
${paragraph(`The link works once, until ${until}. Or paste this address into your browser: ${link}`, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `Reset your password\n\nChoose a new password for your account "${username}" (the link works once, until ${until}):\n${link}\n\nOnce it is set, every device signed in to your account is signed out.\n\n${why}`,
  });
}

/** "Confirm your e-mail address", on registering. */
export function confirmEmail(to: string, username: string, link: string, expiresAt: Date): Promise<MailContent> {
  const until = utcMomentText(expiresAt);
  const why = `You receive this e-mail because an Art & Song Cards account (${username}) was created with this address. If it was not you, ignore it: the address is not confirmed, and nothing placed with it joins that account.`;
  return renderEmail({
    to,
    subject: 'Confirm your e-mail address',
    preview: 'One click, and orders you placed with this address appear in your account.',
    body: html`${heading('Confirm your e-mail address')}
${paragraph(html`Welcome to Art &amp; Song Cards, <strong>${username}</strong>. Confirm that this address is yours: orders you placed as a guest with it then appear in My orders.`)}
${button('Confirm my address', link)}
${paragraph(`The link works until ${until}. Or paste this address into your browser: ${link}`, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `Confirm your e-mail address\n\nWelcome to Art & Song Cards, ${username}. Confirm that this address is yours (the link works until ${until}):\n${link}\n\nOrders you placed as a guest with it then appear in My orders.\n\n${why}`,
  });
}

/** To a new address: it becomes the account's once the link is opened. */
export function changeEmail(to: string, username: string, link: string, expiresAt: Date): Promise<MailContent> {
  const until = utcMomentText(expiresAt);
  const why = `You receive this e-mail because the Art & Song Cards account ${username} asked to use this address from now on. If it was not you, ignore it: nothing changes unless the link is opened.`;
  return renderEmail({
    to,
    subject: 'Confirm your new e-mail address',
    preview: 'Open the link and this becomes the address of your Art & Song Cards account.',
    body: html`${heading('Confirm your new e-mail address')}
${paragraph(html`Open the link, and this address becomes the one of your account <strong>${username}</strong>. Until then, the account keeps its old address.`)}
${button('Use this address', link)}
${paragraph(`The link works once, until ${until}. Or paste this address into your browser: ${link}`, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `Confirm your new e-mail address\n\nOpen the link, and this address becomes the one of your account "${username}" (the link works once, until ${until}):\n${link}\n\nUntil then, the account keeps its old address.\n\n${why}`,
  });
}

/** To the old address, once a new one took effect. */
export function emailChangedEmail(to: string, username: string, newEmail: string, baseUrl: string): Promise<MailContent> {
  const reset = `${baseUrl}/forgot-password`;
  const why = `You receive this e-mail because this address was the one of the Art & Song Cards account ${username} until now.`;
  return renderEmail({
    to,
    subject: 'Your Art & Song Cards address was changed',
    preview: `Your account now uses ${newEmail}.`,
    body: html`${heading('Your address was changed')}
${paragraph(html`The account <strong>${username}</strong> now uses <strong>${newEmail}</strong>; e-mails about it and its orders go there from now on.`)}
${paragraph(html`If you did not change it, someone else may be signed in to your account: <a href="${reset}">reset your password</a> with the new address, or write to us by replying to this e-mail.`)}
${paragraph(why, { quiet: true })}`,
    text: `Your address was changed\n\nThe account "${username}" now uses ${newEmail}; e-mails about it and its orders go there from now on.\n\nIf you did not change it, someone else may be signed in to your account: reset your password (${reset}) or write to us by replying to this e-mail.\n\n${why}`,
  });
}
