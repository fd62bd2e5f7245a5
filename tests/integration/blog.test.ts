import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png, uploadRest, wav } from '../helpers/media-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let customer: string;
beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  customer = await app.customer('reader');
});
afterAll(async () => {
  await app?.stop();
});

const create = (json: unknown, token = admin) => app.request('/api/blog', { method: 'POST', json, token });
const update = (id: number, json: unknown, token = admin) => app.request(`/api/blog/${id}`, { method: 'PUT', json, token });

async function publishedPost(title: string, extra: Record<string, unknown> = {}) {
  const res = await create({ title, body: `# ${title}\n\nSome *words*.`, status: 'published', ...extra });
  expect(res.status).toBe(201);
  return res.json();
}

describe('REST blog', () => {
  it('creates a draft with a slug made from the title, rendering the Markdown', async () => {
    const res = await create({ title: '  Hello, Spring Cards!  ', excerpt: 'Fresh designs', body: '## New\n\nA **bold** start.' });
    expect(res.status).toBe(201);
    const post = await res.json();
    expect(post).toMatchObject({ title: 'Hello, Spring Cards!', slug: 'hello-spring-cards', status: 'draft', published_at: null, author: { username: 'admin' } });
    expect(post.html).toBe('<h2>New</h2>\n<p>A <strong>bold</strong> start.</p>\n');
    const [row] = await app.sql<{ status: string }>('select status from blog_post where id = $1', [post.id]);
    expect(row.status).toBe('draft');
  });

  it('hides drafts from readers everywhere but shows them to admins', async () => {
    const draft = await (await create({ title: 'Secret plans', body: 'Not yet.' })).json();
    for (const token of [undefined, customer]) {
      expect((await app.request(`/api/blog/${draft.id}`, { token })).status).toBe(404);
      expect((await app.request(`/api/blog/secret-plans`, { token })).status).toBe(404);
      const list = await (await app.request('/api/blog', { token })).json();
      expect(list.posts.map((p: { slug: string }) => p.slug)).not.toContain('secret-plans');
      const gql = await app.graphql('query($s: String!) { blogPost(idOrSlug: $s) { id } }', { s: 'secret-plans' }, token);
      expect(gql.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    }
    expect(await app.request('/blog/rss.xml').then((r) => r.text())).not.toContain('Secret plans');
    expect((await app.request(`/api/blog/${draft.id}`, { token: admin })).status).toBe(200);
    const drafts = await (await app.request('/api/blog?status=draft', { token: admin })).json();
    expect(drafts.posts.map((p: { slug: string }) => p.slug)).toContain('secret-plans');
    // A reader asking for drafts still gets published posts only.
    const sneaky = await (await app.request('/api/blog?status=draft')).json();
    expect(sneaky.posts.every((p: { status: string }) => p.status === 'published')).toBe(true);
  });

  it('publishes, lists newest first with paging, and reads by id or slug', async () => {
    const first = await publishedPost('First light', { published_at: '2026-01-01T10:00:00Z' });
    const second = await publishedPost('Second wind', { published_at: '2026-02-01T10:00:00Z' });
    const third = await publishedPost('Third time', { published_at: '2026-03-01T10:00:00Z' });
    const page1 = await (await app.request('/api/blog?limit=2')).json();
    expect(page1.posts.map((p: { id: number }) => p.id)).toEqual([third.id, second.id]);
    expect(page1.total).toBe(3);
    const page2 = await (await app.request(`/api/blog?limit=2&after=${page1.next}`)).json();
    expect(page2.posts.map((p: { id: number }) => p.id)).toEqual([first.id]);
    expect(page2.next).toBeNull();
    expect((await (await app.request('/api/blog/second-wind')).json()).id).toBe(second.id);
    expect((await (await app.request(`/api/blog/${second.id}`)).json()).slug).toBe('second-wind');
  });

  it('keeps a post scheduled for later hidden until its time', async () => {
    const later = await publishedPost('Coming next week', { published_at: new Date(Date.now() + 7 * 86400_000).toISOString() });
    expect((await app.request(`/api/blog/${later.id}`)).status).toBe(404);
    expect((await app.request(`/api/blog/${later.id}`, { token: admin })).status).toBe(200);
    await app.sql("update blog_post set published_at = now() - interval '1 minute' where id = $1", [later.id]);
    expect((await app.request(`/api/blog/${later.id}`)).status).toBe(200);
  });

  it('refuses an empty title, a bad slug and a slug clash (409 with a suggestion)', async () => {
    const empty = await create({ title: '   ' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'title' });
    const bad = await create({ title: 'Fine', slug: 'Not A Slug!' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).field).toBe('slug');
    const clash = await create({ title: 'First light' });
    expect(clash.status).toBe(409);
    expect(await clash.json()).toMatchObject({ code: 'CONFLICT', field: 'slug', message: expect.stringContaining('first-light-2') });
    expect(await app.sql("select count(*)::int as n from blog_post where title = 'Fine'")).toEqual([{ n: 0 }]);
  });

  it('answers 401 and 403 to writes by anonymous callers and customers, 404 to unknown ids', async () => {
    expect((await create({ title: 'Nope' }, '')).status).toBe(401);
    expect((await create({ title: 'Nope' }, customer)).status).toBe(403);
    const [{ id }] = await app.sql<{ id: number }>("select id from blog_post where slug = 'first-light'");
    expect((await update(id, { title: 'Changed' }, customer)).status).toBe(403);
    expect((await app.request(`/api/blog/${id}`, { method: 'DELETE', token: customer })).status).toBe(403);
    expect((await update(999999, { title: 'Ghost' })).status).toBe(404);
    expect((await app.request('/api/blog/999999', { method: 'DELETE', token: admin })).status).toBe(404);
    expect((await app.request('/api/blog/no-such-post')).status).toBe(404);
  });

  it('updates, unpublishes and deletes', async () => {
    const post = await publishedPost('Short lived');
    const changed = await (await update(post.id, { excerpt: 'Now with an excerpt', status: 'draft' })).json();
    expect(changed).toMatchObject({ excerpt: 'Now with an excerpt', status: 'draft', published_at: null, title: 'Short lived' });
    expect((await app.request(`/api/blog/${post.id}`)).status).toBe(404);
    expect((await app.request(`/api/blog/${post.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect(await app.sql('select 1 from blog_post where id = $1', [post.id])).toHaveLength(0);
  });
});

describe('cover images', () => {
  it('takes an image of the media library, refuses songs and unknown files, and loses it when the file goes', async () => {
    const folder = await (await app.request('/api/media/folders', { method: 'POST', json: { name: 'Blog covers' }, token: admin })).json();
    const uploaded = await uploadRest(app, `/api/media/files/${folder.id}`, [
      { name: 'cover.png', data: await png() },
      { name: 'song.wav', data: wav() },
    ], admin);
    const [cover, song] = await uploaded.json();
    const post = await (await create({ title: 'With a cover', cover_image_id: cover.id })).json();
    expect(post).toMatchObject({ cover_image_id: cover.id, cover_image_path: cover.file_path });
    const refused = await update(post.id, { cover_image_id: song.id });
    expect(refused.status).toBe(400);
    expect((await refused.json()).field).toBe('cover_image_id');
    expect((await update(post.id, { cover_image_id: 987654 })).status).toBe(400);

    const usages = await app.graphql('query($id: Int!) { mediaFile(id: $id) { usages { kind id label } } }', { id: cover.id }, admin);
    expect(usages.body.data.mediaFile.usages).toEqual([{ kind: 'post', id: post.id, label: 'With a cover' }]);

    expect((await app.request(`/api/media/files/${cover.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    const after = await (await app.request(`/api/blog/${post.id}`, { token: admin })).json();
    expect(after).toMatchObject({ cover_image_id: null, cover_image_path: null });
  });
});

describe('the sanitiser', () => {
  const payloads: [string, RegExp][] = [
    ['<script>alert(1)</script>', /<script/i],
    ['<img src=x onerror="alert(1)">', /onerror/i],
    ['[click](javascript:alert(1))', /javascript:/i],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', /javascript:/i],
    ['<iframe src="https://evil.example"></iframe>', /<iframe/i],
    ['<svg onload=alert(1)><circle/></svg>', /<svg|onload/i],
    ['<div style="background:url(javascript:alert(1))">x</div>', /style=|javascript:/i],
    ['![x](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)', /data:/i],
    ['<form action="https://evil.example"><input name=a></form>', /<form|<input/i],
    ['<a href="https://example.com" onclick="steal()">ok</a>', /onclick/i],
  ];

  it.each(payloads)('neutralises %s', async (payload, forbidden) => {
    const res = await create({ title: `XSS ${Math.random()}`, body: `Before\n\n${payload}\n\nAfter` });
    const post = await res.json();
    expect(post.html).not.toMatch(forbidden);
    expect(post.html).toContain('Before');
    expect(post.body).toContain(payload);
  });

  it('keeps ordinary formatting, safe links and images', async () => {
    const post = await (await create({ title: 'Formatting', body: '[shop](https://example.com/shop) ![card](/api/uploads/abc.png)\n\n> quote\n\n- a\n- b\n\n`code`' })).json();
    expect(post.html).toContain('<a href="https://example.com/shop" rel="noopener noreferrer nofollow" target="_blank">shop</a>');
    expect(post.html).toContain('<img src="/api/uploads/abc.png" alt="card" loading="lazy" />');
    expect(post.html).toContain('<blockquote>');
    expect(post.html).toContain('<li>a</li>');
  });
});

describe('GraphQL blog', () => {
  it('creates, publishes, reads, unpublishes and deletes', async () => {
    const created = await app.graphql(
      'mutation($input: BlogPostInput!) { createBlogPost(input: $input) { id slug status html author { username } } }',
      { input: { title: 'Via GraphQL', body: 'Hello **there**' } },
      admin,
    );
    const post = created.body.data.createBlogPost;
    expect(post).toMatchObject({ slug: 'via-graphql', status: 'DRAFT', html: '<p>Hello <strong>there</strong></p>\n', author: { username: 'admin' } });
    const published = await app.graphql('mutation($id: Int!) { publishBlogPost(id: $id) { status publishedAt } }', { id: post.id }, admin);
    expect(published.body.data.publishBlogPost.status).toBe('PUBLISHED');
    const read = await app.graphql('query($s: String!) { blogPost(idOrSlug: $s) { title description } }', { s: 'via-graphql' });
    expect(read.body.data.blogPost).toEqual({ title: 'Via GraphQL', description: 'Hello there' });
    const list = await app.graphql('{ blogPosts(first: 50) { totalCount edges { node { slug } } pageInfo { hasNextPage } } }');
    expect(list.body.data.blogPosts.edges[0].node.slug).toBe('via-graphql');
    const forbidden = await app.graphql('mutation($id: Int!) { unpublishBlogPost(id: $id) { status } }', { id: post.id }, customer);
    expect(forbidden.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    await app.graphql('mutation($id: Int!) { unpublishBlogPost(id: $id) { status } }', { id: post.id }, admin);
    expect((await app.graphql('query($s: String!) { blogPost(idOrSlug: $s) { id } }', { s: 'via-graphql' })).body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await app.graphql('mutation($id: Int!) { deleteBlogPost(id: $id) }', { id: post.id }, admin)).body.data.deleteBlogPost).toBe(true);
  });

  it('previews Markdown for admins only, sanitised like a saved post', async () => {
    const query = 'query($b: String!) { blogPreview(body: $b) }';
    const res = await app.graphql(query, { b: '**hi** <script>x()</script>' }, admin);
    expect(res.body.data.blogPreview).toBe('<p><strong>hi</strong> </p>\n');
    expect((await app.graphql(query, { b: 'x' }, customer)).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses an empty title with the field', async () => {
    const res = await app.graphql('mutation { createBlogPost(input: { title: "" }) { id } }', {}, admin);
    expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'title' });
  });
});

describe('RSS and pages', () => {
  it('serves a valid RSS 2.0 feed of the published posts', async () => {
    const res = await app.request('/blog/rss.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\s*<rss version="2.0"/);
    expect(xml).toContain('<title><![CDATA[Third time]]></title>');
    expect(xml).toMatch(/<link>http:\/\/localhost:\d+\/blog\/third-time<\/link>/);
    expect(xml).not.toContain('Secret plans');
    // Every item has a title, a link, a guid and an RFC 822 date.
    const items = xml.split('<item>').slice(1);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item).toMatch(/<title><!\[CDATA\[.+\]\]><\/title>/);
      expect(item).toMatch(/<guid[^>]*>[^<]+<\/guid>/);
      expect(item).toMatch(/<pubDate>\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT<\/pubDate>/);
    }
  });

  it('gives post pages their title and Open Graph tags, and a 404 shell for hidden posts', async () => {
    const page = await app.request('/blog/third-time', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>Third time · Art &amp; Song Cards</title>');
    expect(html).toContain('<meta property="og:title" content="Third time" />');
    expect(html).toContain('<meta property="og:type" content="article" />');
    expect(html).toContain('<div id="root">');
    const hidden = await app.request('/blog/secret-plans', { headers: { accept: 'text/html' } });
    expect(hidden.status).toBe(404);
    expect(await hidden.text()).not.toContain('Secret plans');
  });

  it('locks the blog and the feed while under construction, except for a signed-in admin', async () => {
    await app.request('/api/settings', { method: 'PUT', json: { underConstructionMode: 'true' }, token: admin });
    try {
      for (const path of ['/api/blog', '/api/blog/third-time', '/blog/rss.xml']) {
        const res = await app.request(path);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('3600');
        expect((await app.request(path, { token: customer })).status).toBe(503);
        expect((await app.request(path, { token: admin })).status).toBe(200);
      }
      const gql = await app.graphql('{ blogPosts { totalCount } }');
      expect(gql.status).toBe(503);
      expect(gql.body.errors?.[0].extensions?.code).toBe('UNDER_CONSTRUCTION');
    } finally {
      await app.request('/api/settings', { method: 'PUT', json: { underConstructionMode: 'false' }, token: admin });
    }
  });
});
