import type { default as Sharp } from 'sharp';

let loaded: Promise<typeof Sharp> | null = null;

/**
 * sharp (libvips), loaded the first time an image is read or made: a process that serves pages and
 * never touches an image (most web processes, most of the time) does not carry its 20-odd MB. Its
 * operation cache is off: the shop reads each original once per size it makes, and a cache of
 * decoded images would only hold memory.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loaded;
}
