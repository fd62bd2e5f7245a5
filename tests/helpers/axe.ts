import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** The storefront's pages are held to moderate findings too (contract section 15: landmarks, headings). */
export const SHOPPERS = ['moderate', 'serious', 'critical'] as const;
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** What axe-core finds wrong on the page as it is now: serious and critical problems (the storefront's pages: moderate ones too). */
export async function seriousProblems(page: Page, impacts: readonly string[] = ['serious', 'critical']): Promise<string[]> {
  // A toast or dialog half way through fading has half its contrast: judge the page once its finite transitions have ended.
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: 30_000, polling: 100 },
  );
  // axe-core is 650 kB of script: parsing and compiling it costs a second of a busy machine's CPU. A
  // page's document keeps it (as window.axe) until the page navigates away; only a new one is given it.
  if (!(await page.evaluate(() => typeof (window as unknown as { axe?: { run?: unknown } }).axe?.run === 'function'))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact !== null && impacts.includes(v.impact))
    .flatMap((v) => v.nodes.map((node) => `${v.id} (${v.impact}): ${v.help} at ${node.target.join(' ')}`));
}
