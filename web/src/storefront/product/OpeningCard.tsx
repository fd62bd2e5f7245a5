import { useEffect, useState, type CSSProperties } from 'react';
import { Button, Classes } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MessageLocation } from '../../apollo/generated/graphql';
import { ResponsiveImage, type StoredImage } from '../../common/ResponsiveImage';
import { IMAGE_SIZES } from '../../common/image-sizes';
import { loadFontStylesheet } from '../../common/fonts/font-stylesheet';
import { placementClass } from '../../common/card/placement';
import '../../common/card/opening-card.css';
import './opening-card.css';

type Side = 'closed' | 'open' | 'back';

/** The card's shape: its cover's, as on the recipient's page, or a portrait card's. */
const ratioOf = (cover: StoredImage | null | undefined) => (cover?.width && cover.height ? `${cover.width} / ${cover.height}` : '3 / 4');

const page = (image: StoredImage | null | undefined, alt: string, priority = false) =>
  image ? <ResponsiveImage className="page-image" image={image} sizes={IMAGE_SIZES.card} alt={alt} priority={priority} /> : <span className="page-image blank" />;

/**
 * The card as its recipient will see it: the markup of the e-card page
 * (server/src/modules/ecard/ecard-page.ts), drawn by the same stylesheet (opening-card.css). The cover
 * opens onto the greeting image with the message at the card's placement in its font, and the card
 * turns over to its back.
 */
export function OpeningCard({
  cover,
  greeting,
  back,
  placement,
  fontName,
  message,
  recipientName,
}: {
  cover?: StoredImage | null;
  greeting?: StoredImage | null;
  back?: StoredImage | null;
  placement: MessageLocation;
  fontName: string | null;
  message: string;
  recipientName: string;
}) {
  const [side, setSide] = useState<Side>('closed');
  const intl = useIntl();
  // The family with its category's fallback once the font catalogue is here (it is fetched after the
  // page: until then, and on the server, a serif stands in while the family loads).
  const [refined, setRefined] = useState<{ name: string; css: string } | null>(null);
  useEffect(() => {
    if (!fontName) return;
    // In a task of its own: adding a stylesheet costs a moment the hydration of the page should not wait for.
    const loading = setTimeout(() => loadFontStylesheet(fontName), 0);
    let current = true;
    void import('../../common/fonts/font-css').then(({ fontByName, fontFamilyCss }) => {
      const font = fontByName(fontName);
      if (current && font) setRefined({ name: fontName, css: fontFamilyCss(font) });
    });
    return () => {
      clearTimeout(loading);
      current = false;
    };
  }, [fontName]);
  const recipient = recipientName.trim() || intl.formatMessage({ id: 'product.card.someone', defaultMessage: 'someone special' });
  const fontFamily = !fontName ? undefined : refined?.name === fontName ? refined.css : `'${fontName}', serif`;

  return (
    <figure className="opening-card" data-state={side} aria-label={intl.formatMessage({ id: 'common.cardPreview.label', defaultMessage: 'Card preview' })}>
      <div className="card-book" style={{ '--ratio': ratioOf(cover) } as CSSProperties}>
        <div className="inside">
          {page(greeting, intl.formatMessage({ id: 'product.card.insideAlt', defaultMessage: 'Inside of the card' }))}
          <div className={`message ${placementClass(placement)}`}>
            <p style={{ fontFamily }} data-testid="preview-message">
              {message.trim() || intl.formatMessage({ id: 'product.card.messagePlaceholder', defaultMessage: 'Your message appears here.' })}
            </p>
          </div>
        </div>
        <div className="back">{page(back, intl.formatMessage({ id: 'product.card.backAlt', defaultMessage: 'Back of the card' }))}</div>
        {/* Its name holds the words it shows ("For …"), so that it can be asked for by what one sees. */}
        <button type="button" className="cover" aria-label={intl.formatMessage({ id: 'product.card.open', defaultMessage: 'Open the card for {recipient}' }, { recipient })} onClick={() => setSide('open')}>
          <span className="cover-front">{page(cover, intl.formatMessage({ id: 'product.card.coverAlt', defaultMessage: 'Cover of the card' }), true)}</span>
          <span className="cover-inner">
            <span>
              <FormattedMessage id="product.card.for" defaultMessage="For {recipient}" values={{ recipient }} />
            </span>
          </span>
        </button>
      </div>
      <figcaption>
        <div className={Classes.BUTTON_GROUP} role="group">
          <Button text={intl.formatMessage({ id: 'product.card.cover', defaultMessage: 'Cover' })} active={side === 'closed'} onClick={() => setSide('closed')} />
          <Button text={intl.formatMessage({ id: 'product.card.inside', defaultMessage: 'Inside' })} active={side === 'open'} onClick={() => setSide('open')} />
          <Button text={intl.formatMessage({ id: 'product.card.back', defaultMessage: 'Back' })} active={side === 'back'} onClick={() => setSide('back')} />
        </div>
      </figcaption>
    </figure>
  );
}
