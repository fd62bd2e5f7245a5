/** Blog posts. */
import { z } from 'zod';
import { MAX_TITLE_LENGTH, MAX_TYPED_SLUG_LENGTH } from '../limits.js';
import { SLUG_PATTERN } from '../slug.js';
import { asText } from './fields.js';

export const postTitleSchema = z.preprocess(
  (value) => asText(value).trim(),
  z.string().min(1, 'A post needs a title.').max(MAX_TITLE_LENGTH, `The title must be at most ${MAX_TITLE_LENGTH} characters.`),
);

/** An address typed by the author: lowercase words joined by single dashes, not only digits (those are ids). */
export const postSlugSchema = z.preprocess(
  (value) => asText(value).trim().toLowerCase(),
  z.string().refine((slug) => SLUG_PATTERN.test(slug) && slug.length <= MAX_TYPED_SLUG_LENGTH && !/^\d+$/.test(slug), 'The address must be lowercase letters, digits and single dashes (not only digits).'),
);

/** An optional text of a post (null is empty); the body keeps its spaces, the others are trimmed. */
export const postTextSchema = (field: string, max: number) =>
  z.preprocess(
    (value) => (value === null ? '' : value),
    z
      .string(`${field} must be text.`)
      .max(max, `${field} must be at most ${max} characters.`)
      .transform((text) => (field === 'body' ? text : text.trim())),
  );
