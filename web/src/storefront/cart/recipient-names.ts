import type { IntlShape } from 'react-intl';

/** A short list of a card's recipients in the page's language: "Ann, Ben and 3 others" (as recipientNames says it in English). */
export function localRecipientNames(intl: IntlShape, recipients: readonly { name: string }[], shown = 2): string {
  const names = recipients.map((r) => r.name);
  if (names.length <= 1) return names[0] ?? '';
  if (names.length <= shown + 1) return intl.formatMessage({ id: 'cart.recipients.list', defaultMessage: '{names} and {last}' }, { names: names.slice(0, -1).join(', '), last: names.at(-1) });
  return intl.formatMessage({ id: 'cart.recipients.others', defaultMessage: '{names} and {count, plural, one {# other} other {# others}}' }, { names: names.slice(0, shown).join(', '), count: names.length - shown });
}
