import type { TestApp } from './test-app.js';

/** Runs `work` and returns the SQL the app sent meanwhile (to count queries). */
export async function recordQueries(app: TestApp, work: () => Promise<void>): Promise<string[]> {
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
 * Only the reads of the data, without the storefront gate's one-row read of the under-construction
 * switch (read once per request, so that every process of the shop sees a change at once).
 */
export const selects = (queries: string[]) => queries.filter((q) => /^\s*select/i.test(q) && !isGateRead(q));

const isGateRead = (q: string) => /from "setting"/.test(q) && q.includes('underConstructionMode');
