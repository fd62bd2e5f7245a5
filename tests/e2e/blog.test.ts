import { describe, expect, it } from 'vitest';
import { browserSuite, hydrationErrors, newContext, screenshot, signIn } from '../helpers/browser.js';
import { png, uploadRest } from '../helpers/media-fixtures.js';

const suite = browserSuite();

describe('the blog in a real browser', () => {
  it('an admin writes a post with a cover and Markdown, saves a draft, publishes it, and a visitor reads it', async () => {
    const { app, browser } = suite;
    const token = await app.login();
    const folder = await (await app.request('/api/media/folders', { method: 'POST', json: { name: 'Covers' }, token })).json();
    await uploadRest(app, `/api/media/files/${folder.id}`, [{ name: 'spring-cover.png', data: await png(1200, 600) }], token);

    const adminContext = await newContext(browser, app.url);
    const page = await adminContext.newPage();
    page.setDefaultTimeout(8000);
    await signIn(page);
    await page.waitForURL(app.url + '/');
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await page.getByText('New blog post').click();
    await page.waitForURL(/\/admin\/blog\/new$/);

    await page.getByLabel('Title').fill('Songs for spring');
    expect(await page.getByLabel('Address').inputValue()).toBe('songs-for-spring');
    await page.getByLabel('Excerpt').fill('Three tunes that make a card sing.');
    await page.getByLabel('Body (Markdown)').fill('## Why music\n\nA card with a **song** stays with you.\n\n<script>window.hacked = true</script>');
    await page.getByTestId('markdown-preview').locator('h2', { hasText: 'Why music' }).waitFor();
    expect(await page.getByTestId('markdown-preview').innerHTML()).not.toContain('<script');
    expect(await page.getByTestId('markdown-preview').locator('strong').textContent()).toBe('song');

    await page.getByRole('button', { name: 'Choose cover' }).click();
    const dialog = page.getByRole('dialog', { name: 'Media Browser' });
    await dialog.getByText('Covers').click();
    await dialog.getByRole('button', { name: 'Select spring-cover.png' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('img', { name: 'spring-cover.png' }).waitFor();
    await screenshot(page, 'blog-editor');

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/admin\/blog\/edit\/\d+$/);
    const [row] = await app.sql<{ status: string; cover_image_id: number | null }>("select status, cover_image_id from blog_post where slug = 'songs-for-spring'");
    expect(row.status).toBe('draft');
    expect(row.cover_image_id).not.toBeNull();

    const visitorContext = await newContext(browser, app.url);
    const visitor = await visitorContext.newPage();
    await visitor.goto('/blog/songs-for-spring');
    await visitor.getByText('Post not found').waitFor();
    await visitor.goto('/blog');
    await visitor.getByText('No posts yet').waitFor();

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText(/^Published /).waitFor();
    expect((await app.sql<{ status: string }>("select status from blog_post where slug = 'songs-for-spring'"))[0].status).toBe('published');

    await visitor.goto('/blog');
    await visitor.getByRole('heading', { name: 'Songs for spring' }).click();
    await visitor.waitForURL(/\/blog\/songs-for-spring$/);
    await visitor.getByRole('heading', { name: 'Songs for spring', level: 1 }).waitFor();
    await visitor.getByText('A card with a song stays with you.').waitFor();
    expect(await visitor.evaluate(() => (window as unknown as { hacked?: boolean }).hacked)).toBeUndefined();
    const cover = visitor.locator('img.blog-post-cover');
    await cover.waitFor();
    await visitor.waitForFunction(() => (document.querySelector('img.blog-post-cover') as HTMLImageElement | null)?.naturalWidth ?? 0 > 0);
    await screenshot(visitor, 'blog-post');

    expect(hydrationErrors(adminContext)).toEqual([]);

    await adminContext.close();
    expect(hydrationErrors(visitorContext)).toEqual([]);
    await visitorContext.close();
  });

  it('asks before leaving the editor with unsaved changes', async () => {
    const { app, browser } = suite;
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL(app.url + '/');
    await page.goto('/admin/blog/new');
    await page.getByLabel('Title').fill('Half a thought');
    await page.getByRole('link', { name: 'Blog' }).first().click();
    await page.getByText('You have unsaved changes.').waitFor();
    await page.getByRole('button', { name: 'Stay' }).click();
    expect(page.url()).toMatch(/\/admin\/blog\/new$/);
    expect(await page.getByLabel('Title').inputValue()).toBe('Half a thought');
    await page.getByRole('link', { name: 'Blog' }).first().click();
    await page.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL(/\/blog$/);
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();
  });
});
