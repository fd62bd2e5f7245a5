import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyWithReload } from '../../web/src/app/lazy-with-reload.js';

/** A screen whose code was fetched ahead (preload) draws at once: what hydration of a server-drawn page needs. */
describe('a lazily loaded screen', () => {
  const Screen = lazyWithReload(async () => ({ default: ({ name }: { name: string }) => <h1>Hello {name}</h1> }));
  const page = () => renderToString(<Suspense fallback={<p>loading</p>}><Screen name="Ada" /></Suspense>);

  it('shows its fallback while its code is not here', () => {
    expect(page()).toContain('loading');
  });

  it('renders without suspending once preloaded', async () => {
    await Screen.preload();
    expect(page()).toContain('Hello <!-- -->Ada');
  });
});
