import { escapeHtml, SafeHtml } from '../../../core/html.js';
import { compileOnThread } from './mjml-thread.js';

/**
 * MJML compiled once per process. An e-mail's MJML is written with the `mjml` tag: its static text is
 * the template, its values are holes. The first e-mail of a shape (the same static text and nesting)
 * is compiled by MJML with numbered markers in the holes; every e-mail of that shape is then the
 * compiled HTML with its values put in the holes (escaped, unless they are SafeHtml), which is
 * exactly what MJML gives for the filled-in source, because MJML copies the content of its text
 * elements (mj-text, mj-button, mj-table, mj-title, mj-preview) and attribute values like href as
 * they are. Values must therefore not stand where MJML interprets them (sizes, colours, the
 * structure): write those as static text or `literal(...)`. A list (an array) fills one hole with its
 * items as HTML: use it inside mj-table or mj-text only.
 */
export class MailTemplate {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly TemplateValue[],
  ) {}
}

/** Text that is part of the template itself (a colour, a size): never escaped, and part of its shape. */
export class Literal {
  constructor(readonly text: string) {}
}

export type TemplateValue = MailTemplate | Literal | SafeHtml | string | number | null | undefined | false | readonly TemplateValue[];

/** mjml`<mj-text>${text}</mj-text>`: a piece of an e-mail whose values are holes (escaped when filled). */
export function mjml(strings: TemplateStringsArray, ...values: TemplateValue[]): MailTemplate {
  return new MailTemplate(strings, values);
}

export const literal = (text: string) => new Literal(text);

const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKER = /\uE000(\d+)\uE001/g;

/** A compiled shape: the HTML cut at its holes, and which value goes in each cut. */
interface Compiled {
  pieces: string[];
  holes: number[];
}

/** The shape of a template (its MJML with numbered markers) and the values of its holes, escaped. */
function flatten(template: MailTemplate): { shape: string; fills: string[] } {
  const fills: string[] = [];
  let shape = '';
  const hole = (html: string) => {
    shape += OPEN + fills.length + CLOSE;
    fills.push(html);
  };
  const walk = (t: MailTemplate) => {
    t.strings.forEach((text, i) => {
      shape += text;
      if (i >= t.values.length) return;
      const value = t.values[i];
      if (value instanceof MailTemplate) walk(value);
      else if (value instanceof Literal) shape += value.text;
      else hole(asHtml(value));
    });
  };
  walk(template);
  return { shape, fills };
}

/** A value as the HTML it stands for (a nested template filled in place, without compiling it). */
export function asHtml(value: TemplateValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (value instanceof Literal) return value.text;
  if (value instanceof MailTemplate) return value.strings.reduce((out, text, i) => out + text + (i < value.values.length ? asHtml(value.values[i]!) : ''), '');
  if (Array.isArray(value)) return value.map(asHtml).join('');
  return escapeHtml(String(value));
}

/** Compiles MJML source (strict validation: a template that is not valid MJML fails loudly), on the MJML thread. */
function compileSource(source: string, name: string): Promise<string> {
  return compileOnThread(source, name);
}

/** Compiled shapes of this process, by their MJML. A shop has a handful (a few per kind of e-mail). */
const shapes = new Map<string, Promise<Compiled>>();
/** Counts for tests and the profile: how often MJML ran, how often a compiled shape was filled. */
export const compileStats = { compiled: 0, filled: 0 };

/** The HTML of a template: its shape compiled once per process, then filled with its values. */
export async function renderTemplate(template: MailTemplate, name: string): Promise<string> {
  const { shape, fills } = flatten(template);
  let compiled = shapes.get(shape);
  if (!compiled) {
    compiled = compileSource(shape, name).then((html) => {
      compileStats.compiled++;
      const pieces: string[] = [];
      const holes: number[] = [];
      let last = 0;
      for (const match of html.matchAll(MARKER)) {
        pieces.push(html.slice(last, match.index));
        holes.push(Number(match[1]));
        last = match.index! + match[0].length;
      }
      pieces.push(html.slice(last));
      return { pieces, holes };
    });
    // A failed compile is not kept: the next e-mail of the shape tries again (and fails the same way, loudly).
    compiled.catch(() => shapes.delete(shape));
    shapes.set(shape, compiled);
  }
  const { pieces, holes } = await compiled;
  compileStats.filled++;
  let out = pieces[0]!;
  for (let i = 0; i < holes.length; i++) out += fills[holes[i]!]! + pieces[i + 1]!;
  return out;
}

/** MJML given as finished source (a SafeHtml body): compiled for this e-mail alone, as before templates were compiled. */
export function renderSource(source: string, name: string): Promise<string> {
  return compileSource(source, name);
}
