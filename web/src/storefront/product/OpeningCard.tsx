import { useEffect, useState } from 'react';
import { Button, ButtonGroup } from '@blueprintjs/core';
import type { MessageLocation } from '../../apollo/generated/graphql';
import { ResponsiveImage, type StoredImage } from '../../common/ResponsiveImage';
import { IMAGE_SIZES } from '../../common/image-sizes';
import { placementClass } from '../../common/card/placement';
import { loadFontStylesheet } from '../../common/fonts/font-stylesheet';
import { fontByName, fontFamilyCss } from '../../common/fonts/font-css';
import '../../common/card/card-preview.css';
import './opening-card.css';

type Side = 'closed' | 'open' | 'back';

/**
 * The card as its recipient will see it: the cover opens onto the greeting image with the message at
 * the card's placement in its font, and the card turns over to its back.
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
  const font = fontByName(fontName);
  useEffect(() => {
    if (fontName) loadFontStylesheet(fontName);
  }, [fontName]);

  return (
    <figure className="opening-card" data-side={side} aria-label="Card preview">
      <div className="opening-card-book">
        <div className="opening-card-page opening-card-inside">
          {greeting ? <ResponsiveImage image={greeting} sizes={IMAGE_SIZES.card} alt="Inside of the card" /> : <div className="opening-card-blank" />}
          <div className={`opening-card-message ${placementClass(placement)}`}>
            <p style={{ fontFamily: font ? fontFamilyCss(font) : fontName ? `'${fontName}', serif` : undefined }} data-testid="preview-message">
              {message.trim() || 'Your message appears here.'}
            </p>
          </div>
        </div>
        <div className="opening-card-page opening-card-back">{back ? <ResponsiveImage image={back} sizes={IMAGE_SIZES.card} alt="Back of the card" /> : <div className="opening-card-blank" />}</div>
        <button type="button" className="opening-card-cover" aria-label="Open the card" onClick={() => setSide('open')}>
          <span className="opening-card-front">{cover ? <ResponsiveImage image={cover} sizes={IMAGE_SIZES.card} alt="Cover of the card" priority /> : <span className="opening-card-blank" />}</span>
          <span className="opening-card-verso">For {recipientName.trim() || 'someone special'}</span>
        </button>
      </div>
      <figcaption>
        <ButtonGroup>
          <Button text="Cover" active={side === 'closed'} onClick={() => setSide('closed')} />
          <Button text="Inside" active={side === 'open'} onClick={() => setSide('open')} />
          <Button text="Back" active={side === 'back'} onClick={() => setSide('back')} />
        </ButtonGroup>
      </figcaption>
    </figure>
  );
}
