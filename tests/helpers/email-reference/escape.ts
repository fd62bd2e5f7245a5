/**
 * The reference's own HTML escaping, written apart from the shop's (server/src/core/html.ts), so
 * that a fault there shows up as a difference here instead of being shared by both sides.
 */

/** Markup already escaped: put into a template as it is. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** The five characters that mean something in HTML text and in quoted attributes, as e-mails have always written them. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);

type Value = SafeHtml | string | number | null | undefined | false | Value[];

function valueHtml(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(valueHtml).join('');
  return value instanceof SafeHtml ? value.value : escapeHtml(String(value));
}

/** html`<p>${text}</p>`: the values escaped, SafeHtml values kept. */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => (out += valueHtml(value) + strings[i + 1]!));
  return new SafeHtml(out);
}
