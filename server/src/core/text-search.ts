/** Substring search over a lower-case `search_text` column (trigram-indexed where lists are large). */

/** `value` as a LIKE pattern matching it literally. */
export const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The most of a search's text that is read: far more than anyone types, and bounded before it reaches a query. */
export const MAX_SEARCH_LENGTH = 500;

/** The words of a search, lower case, at most `max` of them. */
export const searchWords = (text: string | null | undefined, max: number): string[] => (text ?? '').slice(0, MAX_SEARCH_LENGTH).toLowerCase().split(/\s+/).filter(Boolean).slice(0, max);

/** One `$like` condition per word: a row matches when its search text holds every word. */
export const containsEveryWord = (text: string | null | undefined, max: number) => searchWords(text, max).map((word) => ({ searchText: { $like: `%${escapeLike(word)}%` } }));
