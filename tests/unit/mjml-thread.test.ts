import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { mjml, renderSource, renderTemplate } from '../../server/src/modules/mail/templates/compiled.js';
import { mjmlThread } from '../../server/src/modules/mail/templates/mjml-thread.js';

/**
 * MJML runs on a thread of its own, started by the first compile: loading it on the main thread held
 * every request of the shop up for most of a second when the first e-mail after a start was rendered.
 */
const loadedHere = () => Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('/node_modules/mjml'));
const until = async (check: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('the MJML thread', () => {
  const idle = mjmlThread.idleMs;
  afterAll(() => {
    mjmlThread.idleMs = idle;
  });

  it('compiles e-mails without loading MJML on the main thread', async () => {
    const html = await renderTemplate(mjml`<mjml><mj-body><mj-section><mj-column><mj-text>Merry Christmas, ${'Ada & Grace'}!</mj-text></mj-column></mj-section></mj-body></mjml>`, 'test greeting');
    expect(html).toContain('Merry Christmas, Ada &amp; Grace!');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(mjmlThread.running()).toBe(true);
    expect(loadedHere()).toEqual([]);
  });

  it('refuses MJML that is not valid, naming the template', async () => {
    await expect(renderSource('<mjml><mj-body><mj-column><mj-nope>x</mj-nope></mj-column></mj-body></mjml>', 'broken one')).rejects.toThrow(/E-mail template "broken one" is not valid MJML/);
  });

  it('ends when no compile came for a while, giving its memory back, and starts again for the next', async () => {
    mjmlThread.idleMs = 50;
    await renderSource('<mjml><mj-body><mj-section><mj-column><mj-text>One</mj-text></mj-column></mj-section></mj-body></mjml>', 'one');
    await until(() => !mjmlThread.running());
    const html = await renderSource('<mjml><mj-body><mj-section><mj-column><mj-text>Two</mj-text></mj-column></mj-section></mj-body></mjml>', 'two');
    expect(html).toContain('Two');
    expect(mjmlThread.running()).toBe(true);
  });
});
