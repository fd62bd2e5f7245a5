import { escapeHtml } from '../../server/src/core/html.js';
import { DEFAULT_SHOP_NAME } from '../../server/src/rules/index.js';

/** The shop's name before its owner sets one (pages take the owner's, see PageDrawer). */
export const SITE_NAME = DEFAULT_SHOP_NAME;
/** What a page without a description of its own says about the shop. */
export const siteDescription = (shopName: string) => `${shopName}: e-greeting cards with songs, images and your own words. Beautiful greetings without the wait.`;
export const SITE_DESCRIPTION = siteDescription(SITE_NAME);

/** An image to preload: the page's largest picture, fetched before the scripts that draw it. */
export interface PreloadImage {
  href: string;
  srcSet?: string | null;
  sizes?: string;
}

/** What the server says about a page in its `<head>`, for crawlers and link previews. */
export interface PageHead {
  title: string;
  /** The shop's name (`og:site_name`, the default description); the default shop's when left out. */
  siteName?: string;
  /** The name link previews show (Open Graph, Twitter); the title by default. */
  socialTitle?: string;
  description?: string;
  /** The page's one address (absolute), in the page's language. */
  canonical?: string;
  /** The same page in each language (`hreflang`, and `x-default`): see page-locale.ts. */
  alternates?: { hreflang: string; href: string }[];
  /** Open Graph: `og:type`, and the image shown in link previews (absolute URL). */
  type?: 'website' | 'article' | 'product';
  image?: string | null;
  /** Further `<meta property>` tags, e.g. `article:published_time`. */
  meta?: Record<string, string>;
  /** Structured data (schema.org), written as JSON-LD. */
  jsonLd?: object[];
  preloadImage?: PreloadImage | null;
}

/** JSON inside a <script> element: `<`, `>`, `&` and the line separators escaped, so no content can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const attr = (value: string) => escapeHtml(value);

/** The tags of a page head, every value escaped. */
export function renderHeadTags(head: PageHead): string {
  const siteName = head.siteName ?? SITE_NAME;
  const description = head.description?.trim() || siteDescription(siteName);
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${attr(description)}" />`,
  ];
  if (head.canonical) tags.push(`<link rel="canonical" href="${attr(head.canonical)}" />`);
  for (const { hreflang, href } of head.alternates ?? []) tags.push(`<link rel="alternate" hreflang="${attr(hreflang)}" href="${attr(href)}" />`);
  const og: Record<string, string | undefined> = {
    'og:type': head.type ?? 'website',
    'og:site_name': siteName,
    'og:title': head.socialTitle ?? head.title,
    'og:description': description,
    'og:url': head.canonical,
    'og:image': head.image ?? undefined,
    ...head.meta,
  };
  for (const [property, content] of Object.entries(og)) {
    if (content) tags.push(`<meta property="${attr(property)}" content="${attr(content)}" />`);
  }
  const twitter: Record<string, string | undefined> = {
    'twitter:card': head.image ? 'summary_large_image' : 'summary',
    'twitter:title': head.socialTitle ?? head.title,
    'twitter:description': description,
    'twitter:image': head.image ?? undefined,
  };
  for (const [name, content] of Object.entries(twitter)) {
    if (content) tags.push(`<meta name="${attr(name)}" content="${attr(content)}" />`);
  }
  for (const data of head.jsonLd ?? []) tags.push(`<script type="application/ld+json">${scriptJson(data)}</script>`);
  const preload = head.preloadImage;
  if (preload) {
    const responsive = preload.srcSet ? ` imagesrcset="${attr(preload.srcSet)}" imagesizes="${attr(preload.sizes ?? '100vw')}"` : '';
    tags.push(`<link rel="preload" as="image" href="${attr(preload.href)}"${responsive} fetchpriority="high" />`);
  }
  return tags.join('\n    ');
}
