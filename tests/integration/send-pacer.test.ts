import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendPacer } from '../../server/src/modules/mail/send-pacer.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * MAIL_MAX_PER_SECOND kept together by the processes that send (contract section 10), as each one's
 * pacer decides it: every send time a pacer gives is read on that process's clock, so what is counted
 * here is what the pacers decided, not when a busy machine got round to it.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 });
  await app.services.deliveries.stop();
});
afterAll(async () => {
  await app?.stop();
});

describe('the send pacer', () => {
  it('lets at most the cap go in any second across two processes, and never on a send time missed by more than 50 ms', async () => {
    const CAP = 10;
    const SENDS = 60;
    const LANES = 4;
    const sql = (text: string, params: unknown[]) => app.orm.em.fork().execute(text, params);
    // The second process's timers sometimes fire half a second late (as on a busy machine): every
    // fifth wait lasts 500 ms longer than asked. A send time missed by that much must be given up.
    let waits = 0;
    const busy = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms + (++waits % 5 === 0 ? 500 : 0))) };
    const pacers = [new SendPacer(sql, CAP, LANES), new SendPacer(sql, CAP, LANES, busy)];
    const times: number[] = [];
    await Promise.all(
      pacers.flatMap((pacer) =>
        Array.from({ length: LANES }, async () => {
          while (times.length < SENDS) times.push(await pacer.sendTime());
        }),
      ),
    );
    const perSecond = new Map<number, number>();
    for (const at of times) perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(CAP);
    // Spread over the seconds, not let out in a burst: at least as many seconds as the cap demands.
    expect(perSecond.size).toBeGreaterThanOrEqual(Math.ceil(times.length / CAP));
  });
});
