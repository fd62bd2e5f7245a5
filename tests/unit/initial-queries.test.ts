import { print, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { INITIAL_QUERIES, IMAGE_SIZES } from '../../gateway/src/initial-queries.js';
import { withTypename } from '../../gateway/src/initial-state.js';
import { parse } from 'graphql';
import { renderHeadTags, scriptJson } from '../../gateway/src/page-head.js';
import { renderAppShell } from '../../gateway/src/web-client.js';
import { ShopCategoriesQuery, ShopProductsQuery, ShopProductTypesQuery } from '../../web/src/storefront/shop/shop-operations.js';
import { StoreProductQuery } from '../../web/src/storefront/product/product-operations.js';
import { BlogPostQuery, BlogPostsQuery } from '../../web/src/blog/blog-operations.js';
import { IMAGE_SIZES as CLIENT_IMAGE_SIZES } from '../../web/src/common/image-sizes.js';

/** Fields in a stable order, so that the same selection written differently compares equal. */
function normalise(document: DocumentNode): string {
  const sorted = JSON.parse(JSON.stringify(document, (key, value) => (key === 'loc' ? undefined : value)), (_key, value) => {
    if (value && Array.isArray(value.selections)) value.selections.sort((a: any, b: any) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    return value;
  });
  sorted.definitions.sort((a: any, b: any) => a.kind.localeCompare(b.kind));
  return print(sorted);
}

describe('the data a page carries', () => {
  const client: Record<keyof typeof INITIAL_QUERIES, DocumentNode> = {
    ShopCategories: ShopCategoriesQuery,
    ShopProducts: ShopProductsQuery,
    ShopProductTypes: ShopProductTypesQuery,
    StoreProduct: StoreProductQuery,
    BlogPosts: BlogPostsQuery,
    BlogPost: BlogPostQuery,
  };

  it.each(Object.keys(INITIAL_QUERIES) as (keyof typeof INITIAL_QUERIES)[])('%s is read by the server exactly as the client asks for it', (name) => {
    expect(normalise(parse(INITIAL_QUERIES[name]))).toBe(normalise(client[name]));
  });

  it('asks for __typename below the root, as the client cache writes it', () => {
    const printed = print(withTypename(parse(INITIAL_QUERIES.ShopProducts)));
    expect(printed).toMatch(/searchProducts\([^)]*\) \{[\s\S]*__typename\n  \}\n\}/);
    expect(printed).not.toMatch(/^query ShopProducts[^{]*\{\s*__typename/);
  });

  it('preloads the main picture with the sizes the client draws it at', () => {
    expect(IMAGE_SIZES).toEqual(CLIENT_IMAGE_SIZES);
  });
});

describe('the page head', () => {
  it('escapes every value, and JSON so that no content can close its script', () => {
    const tags = renderHeadTags({ title: 'A "$&" <b>', description: "it's </script>", canonical: 'http://x/?a=1&b=2', jsonLd: [{ name: '</script><script>alert(1)</script>\u2028' }] });
    expect(tags).toContain('<title>A &quot;$&amp;&quot; &lt;b&gt;</title>');
    expect(tags).toContain('<meta name="description" content="it&#39;s &lt;/script&gt;" />');
    expect(tags).toContain('<link rel="canonical" href="http://x/?a=1&amp;b=2" />');
    expect(tags).not.toContain('</script><script>');
    expect(JSON.parse(scriptJson({ a: '</script>\u2028&' }))).toEqual({ a: '</script>\u2028&' });
  });

  it('replaces the shell title and description with a function, so `$` patterns stay text', () => {
    const shell = '<html><head><meta name="description" content="default" />\n<title>Shop</title></head><body><div id="root"></div></body></html>';
    const html = renderAppShell(shell, { head: { title: "$' $` $& $1" }, state: { settings: { underConstructionMode: false, isAdmin: false } } });
    expect(html).toContain("<title>$&#39; $` $&amp; $1</title>");
    expect(html).not.toContain('content="default"');
    expect(html).toContain('<div id="root"></div>\n    <script type="application/json" id="initial-state">{"settings":{"underConstructionMode":false,"isAdmin":false}}</script>');
  });
});
