/**
 * One card to many recipients (contract section 12): a cart line of a card may go to several people,
 * each getting their own card, and `{name}` in the message becomes each one's name. The product
 * page's preview and the server fill a message with the same function.
 */

/** Recipients of one cart line (each is one card, one order item, one e-mail). */
export const MAX_RECIPIENTS_PER_LINE = 100;

/** What a shopper writes in a message where each recipient's name goes. */
export const NAME_PLACEHOLDER = '{name}';

/** Where only the recipient's first name goes ("Merry Christmas {firstName}!" → "Merry Christmas Frank!"). */
export const FIRST_NAME_PLACEHOLDER = '{firstName}';

/** `{name}`, also written `{ name }` or `{Name}`; `{firstName}`, also `{first name}` or `{FirstName}`. */
const PLACEHOLDER = /\{\s*(first\s*name|name)\s*\}/gi;

/** A name's first word ("Frank Ocean" → "Frank"); the whole name when it is one word. */
export const firstNameOf = (name: string): string => name.trim().split(/\s+/)[0] ?? '';

/**
 * A message with `{name}` replaced by a recipient's name and `{firstName}` by its first word (the
 * name as typed: it is plain text, never markup).
 */
export function fillName(message: string, name: string): string {
  return message.replace(PLACEHOLDER, (_match, which: string) => (/^name$/i.test(which) ? name : firstNameOf(name)));
}

/** Whether a message says where the recipient's name goes. */
export const hasNamePlaceholder = (message: string): boolean => message.search(PLACEHOLDER) !== -1;

/** One recipient of a card line. */
export interface CardRecipient {
  name: string;
  email: string;
}

/** A short list of names for a line of the cart or an e-mail: "Ann, Ben and 3 others". */
export function recipientNames(recipients: readonly { name: string }[], shown = 2): string {
  const names = recipients.map((r) => r.name);
  if (names.length <= shown + 1) return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
  const others = names.length - shown;
  return `${names.slice(0, shown).join(', ')} and ${others} others`;
}
