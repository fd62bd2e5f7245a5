import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import type { InitialState } from './web-client.js';

/** web/src/entry-server.tsx as built by `vite build --ssr` (web/ssr, beside web/dist). */
interface ServerEntry {
  render(url: string, state: InitialState, options?: { theme?: 'light' | 'dark' }): Promise<string | null>;
}

const entries = new Map<string, Promise<ServerEntry | null>>();

/** The server renderer built beside the web client, or null when there is none (a client-only build, dev). */
export function serverEntryFile(webDir: string): string {
  return path.join(webDir, '..', 'ssr', 'entry-server.js');
}

function loadEntry(webDir: string, log: Pick<Logger, 'warn'>): Promise<ServerEntry | null> {
  const file = serverEntryFile(webDir);
  let entry = entries.get(file);
  if (!entry) {
    entry = fs.existsSync(file)
      ? (import(pathToFileURL(file).href) as Promise<ServerEntry>).catch((error: unknown) => {
          log.warn({ err: error }, 'the storefront renderer could not be loaded; pages are drawn by the browser');
          return null;
        })
      : Promise.resolve(null);
    // A renderer built later is picked up by the next request (a missing one is not remembered).
    if (fs.existsSync(file)) entries.set(file, entry);
  }
  return entry;
}

/**
 * Loads the storefront's renderer now (its module is megabytes of code, evaluated in one go): a
 * process that draws pages in the background pays for it while it starts, before it answers any
 * request or health check, rather than in the middle of them.
 */
export async function loadRenderer(webDir: string, log: Pick<Logger, 'warn'>): Promise<void> {
  await loadEntry(webDir, log);
}

/**
 * The HTML of a storefront page's #root, drawn on the server from the page's initial state, so
 * that a phone paints the first screen before any JavaScript has run; the browser hydrates it.
 * Null when it cannot be drawn here (no renderer built, or rendering failed): the page is then
 * sent as before and the browser draws it alone.
 */
export async function renderPage(webDir: string, url: string, state: InitialState, log: Pick<Logger, 'warn'>, theme: 'light' | 'dark' = 'dark'): Promise<string | null> {
  const entry = await loadEntry(webDir, log);
  if (!entry) return null;
  try {
    return await entry.render(url, state, { theme });
  } catch (error) {
    log.warn({ err: error, url }, 'the page could not be drawn on the server; the browser draws it');
    return null;
  }
}

/** The theme the visitor chose, as the browser tells it (the `theme` cookie, web/src/common/theme.ts); dark unless light. */
export type Theme = 'light' | 'dark';

export function themeOf(cookie: string | undefined): Theme {
  return /(?:^|;\s*)theme=light(?:;|$)/.test(cookie ?? '') ? 'light' : 'dark';
}
