import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sessionCookieOf } from '../../gateway/src/session-cookie.js';

/** The `session` cookie's flags as a browser gets them, in production and out of it. */
let base: string;
let close: () => void;
beforeAll(async () => {
  const app = express();
  app.post('/write/:secure', (req, res) => {
    const cookie = sessionCookieOf(req, res, req.params.secure === 'yes');
    cookie.write('abc-DEF_123', 60);
    res.json({ read: cookie.read() ?? null });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close?.());

it('is Secure in production, httpOnly, SameSite=Lax and sent to /api/session only', async () => {
  const res = await fetch(`${base}/write/yes`, { method: 'POST', headers: { cookie: 'theme=light; session=from-the-browser' } });
  expect(await res.json()).toEqual({ read: 'from-the-browser' });
  expect(res.headers.getSetCookie()).toEqual([expect.stringMatching(/^session=abc-DEF_123; Max-Age=60; Path=\/api\/session; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/)]);
});

it('is not Secure outside production (plain http), and reads as absent when the browser sent none', async () => {
  const res = await fetch(`${base}/write/no`, { method: 'POST', headers: { cookie: 'theme=light' } });
  expect(await res.json()).toEqual({ read: null });
  expect(res.headers.getSetCookie()[0]).not.toContain('Secure');
});
