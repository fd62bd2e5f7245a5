/** A product page's description and pictures: the text that opens with "Read more", the card beside its pictures, the gallery. */
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ResponsiveImage, type StoredImage } from '../../common/ResponsiveImage';
import { IMAGE_SIZES } from '../../common/image-sizes';

/** A description of a few lines shows whole; a longer one opens with "Read more", so the form stays in view. */
export function Description({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > 260 || text.split('\n').length > 4;
  return (
    <div className="product-description-wrap">
      <p className={`product-description${long && !open ? ' clamped' : ''}`} id="product-description">
        {text}
      </p>
      {long && (
        <button type="button" className="product-description-more" aria-expanded={open} aria-controls="product-description" onClick={() => setOpen((was) => !was)}>
          {open ? <FormattedMessage id="product.description.less" defaultMessage="Read less" /> : <FormattedMessage id="product.description.more" defaultMessage="Read more" />}
        </button>
      )}
    </div>
  );
}

type Picture = StoredImage & { id: number; friendlyName: string };

/** The opening card, and the product's other pictures as thumbnails: one opens in the card's place, the first brings the card back. */
export function CardWithPictures({ card, cardThumbnail, pictures, name }: { card: ReactNode; cardThumbnail: (StoredImage & { thumbnailPath?: string | null }) | null | undefined; pictures: Picture[]; name: string }) {
  const [shown, setShown] = useState(-1);
  const intl = useIntl();
  const picture = pictures[shown];
  return (
    <div className="product-gallery">
      {picture ? <ResponsiveImage className="product-gallery-main" image={picture} sizes={IMAGE_SIZES.gallery} alt={picture.friendlyName || name} /> : card}
      {pictures.length > 0 && (
        <div className="product-gallery-thumbs" role="group" aria-label={intl.formatMessage({ id: 'product.pictures.label', defaultMessage: 'Pictures' })}>
          <button type="button" className={shown < 0 ? 'active' : ''} aria-pressed={shown < 0} onClick={() => setShown(-1)} aria-label={intl.formatMessage({ id: 'product.pictures.card', defaultMessage: 'The card' })}>
            {cardThumbnail ? <img src={`/api/${cardThumbnail.thumbnailPath ?? cardThumbnail.filePath}`} alt="" width={64} height={64} loading="lazy" decoding="async" /> : <span className="product-gallery-card-thumb"><FormattedMessage id="product.pictures.cardThumb" defaultMessage="Card" /></span>}
          </button>
          {pictures.map((image, index) => (
            <button key={image.id} type="button" className={index === shown ? 'active' : ''} aria-pressed={index === shown} onClick={() => setShown(index)} aria-label={intl.formatMessage({ id: 'product.pictures.picture', defaultMessage: 'Picture {number}' }, { number: index + 1 })}>
              <img src={`/api/${image.thumbnailPath ?? image.filePath}`} alt="" width={64} height={64} loading="lazy" decoding="async" />
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

export function Gallery({ images, name }: { images: (StoredImage & { id: number; friendlyName: string })[]; name: string }) {
  const [shown, setShown] = useState(0);
  const intl = useIntl();
  const current = images[shown];
  if (!current) return <div className="product-gallery-empty" />;
  return (
    <div className="product-gallery">
      <ResponsiveImage className="product-gallery-main" image={current} sizes={IMAGE_SIZES.gallery} alt={current.friendlyName || name} priority={shown === 0} />
      {images.length > 1 && (
        <div className="product-gallery-thumbs">
          {images.map((image, index) => (
            <button key={`${image.id}-${index}`} type="button" className={index === shown ? 'active' : ''} onClick={() => setShown(index)} aria-label={intl.formatMessage({ id: 'product.pictures.picture', defaultMessage: 'Picture {number}' }, { number: index + 1 })}>
              <img src={`/api/${image.thumbnailPath ?? image.filePath}`} alt="" width={64} height={64} loading="lazy" decoding="async" />
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
