/** Server-rendered HTML (e-mails, the e-card page): every interpolated value is escaped unless it is already `SafeHtml`. */

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

type Value = SafeHtml | string | number | null | undefined | false | Value[];

const render = (value: Value): string => {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (value instanceof SafeHtml) return value.value;
  return escapeHtml(String(value));
};

/** html`<p>${text}</p>`: a template whose values are escaped. */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, part, i) => out + part + (i < values.length ? render(values[i]!) : ''), ''));
}

/**
 * Data for a page's script, in the page (`<script type="application/json" id="…">`): what the script
 * says in the page's language, so that the script itself holds no words. `<` is escaped, so nothing
 * in the data can end the element.
 */
export const jsonData = (id: string, value: unknown): SafeHtml =>
  new SafeHtml(`<script type="application/json" id="${escapeHtml(id)}">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`);
