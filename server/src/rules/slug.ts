import slugify from 'slugify';
import { MAX_SLUG_LENGTH } from './limits.js';

/** A blog post's address: lower-case words joined by "-", never only digits (those are post ids). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The address made from a title ("Hello, World!" → "hello-world"), by the server and by the editor's preview. */
export function slugFromTitle(title: string): string {
  return slugify(title, { lower: true, strict: true, trim: true })
    .replace(/-+/g, '-')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
}
