/** Substring search over a lower-case `search_text` column (trigram-indexed where lists are large). */

/** `value` as a LIKE pattern matching it literally. */
export const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The words of a search, lower case, at most `max` of them. */
export const searchWords = (text: string | null | undefined, max: number): string[] => (text ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, max);

/** One `$like` condition per word: a row matches when its search text holds every word. */
export const containsEveryWord = (text: string | null | undefined, max: number) => searchWords(text, max).map((word) => ({ searchText: { $like: `%${escapeLike(word)}%` } }));
