import type { TestApp } from './test-app.js';

/** Runs `work` and returns the SQL the app sent meanwhile (to count queries). */
export async function recordQueries(app: Pick<TestApp, 'orm'>, work: () => Promise<void>): Promise<string[]> {
  const queries: string[] = [];
  const logger = app.orm.config.getLogger();
  const original = logger.logQuery;
  logger.logQuery = (context) => void queries.push(String(context.query));
  app.orm.config.set('debug', true);
  try {
    await work();
  } finally {
    app.orm.config.set('debug', false);
    logger.logQuery = original;
  }
  return queries;
}

/**
 * How many statements `work` sends, counted by `count` (e.g. `selects(q).length`): the fewest of a
 * few runs. What the shop does on its own meanwhile (the mail queue looking up its next due time, a
 * read it keeps for a moment running out) lands in whichever run it overlaps, never in all of them.
 */
export async function fewestQueries(app: TestApp, work: () => Promise<void>, count: (queries: string[]) => number, runs = 3): Promise<number> {
  let fewest = Infinity;
  for (let run = 0; run < runs; run++) fewest = Math.min(fewest, count(await recordQueries(app, work)));
  return fewest;
}

/**
 * Only the reads of the data, without the storefront gate's one-row read of the under-construction
 * switch (read once per request, so that every process of the shop sees a change at once).
 */
export const selects = (queries: string[]) => queries.filter((q) => /^\s*select/i.test(q) && !isGateRead(q));

/** The storefront gate's read of the under-construction switch (cached; read again once its entry has gone). */
export const isGateRead = (q: string) => /from "setting"/.test(q) && q.includes('underConstructionMode');
