/// <reference types="vite/client" />
import { renderToStaticMarkup } from 'react-dom/server';
import { RawIntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { renderEcardPage } from '../../server/src/modules/ecard/ecard-page.js';
import type { OrderItem } from '../../server/src/modules/orders/order-item.entity.js';
import { OpeningCard } from '../../web/src/storefront/product/OpeningCard.js';
import { pageIntl } from '../../web/src/i18n/page-intl.js';

const media = (path: string) => ({ path, name: path, mimeType: 'image/png', width: 600, height: 400 });

/** The recipient's page of a card with a cover, a greeting and a back, its message at the top left. */
const ecardPage = renderEcardPage(
  {
    name: 'Balloon Birthday',
    senderName: 'Ada',
    recipientName: 'Grace',
    message: 'Happy birthday!',
    itemUrlUuid: '00000000-0000-4000-8000-000000000000',
    card: { messageLocation: 'top-left', fontName: 'Dancing Script', cover: media('cover.png'), greeting: media('greeting.png'), back: media('back.png'), extras: [], songs: [] },
  } as unknown as OrderItem,
  { preview: true, repliesLeft: 0 },
);

/** The product page's preview of the same card. */
const preview = renderToStaticMarkup(
  <RawIntlProvider value={pageIntl()}>
    <OpeningCard
      cover={{ filePath: 'cover.png', width: 600, height: 400 }}
      greeting={{ filePath: 'greeting.png', width: 600, height: 400 }}
      back={{ filePath: 'back.png', width: 600, height: 400 }}
      placement="TOP_LEFT"
      fontName="Dancing Script"
      message="Happy birthday!"
      recipientName="Grace"
    />
  </RawIntlProvider>,
);

/** The card's part of a page: its classes in document order and its shape. */
function card(html: string, end: string) {
  const start = html.indexOf('<div class="card-book');
  const book = html.slice(start, html.indexOf(end, start));
  return {
    classes: [...book.matchAll(/class="([^"]*)"/g)].map((match) => match[1]!.split(' ').filter((name) => name !== 'spread' && name !== 'hint').join(' ')).filter(Boolean),
    ratio: /--ratio:\s*([^;"]+)/.exec(book)?.[1],
  };
}

describe('the opening card drawn by one markup', () => {
  it('is the same element for element on the recipient’s page and in the shop’s preview', () => {
    const page = card(ecardPage, '<nav class="controls"');
    expect(page.classes).toEqual(['card-book', 'inside', 'page-image', 'message placement-top-left', 'back', 'page-image', 'cover', 'cover-front', 'page-image', 'cover-inner']);
    expect(card(preview, '<figcaption')).toEqual(page);
    expect(page.ratio).toBe('600 / 400');
  });
});
