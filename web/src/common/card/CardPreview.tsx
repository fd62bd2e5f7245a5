import { useEffect } from 'react';
import { Icon } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MessageLocation } from '../../apollo/generated/graphql';
import { loadFontStylesheet } from '../fonts/font-stylesheet';
import { placementClass } from './placement';
import './opening-card.css';
import './card-preview.css';

/**
 * A small live preview of an e-greeting card: the cover beside the inside, where the message sits at
 * its placement in the card's font. Its pages are the pages of the recipient's card (opening-card.css).
 */
export function CardPreview({
  coverPath,
  greetingPath,
  placement,
  fontName,
  message,
}: {
  coverPath?: string | null;
  greetingPath?: string | null;
  placement: MessageLocation;
  fontName: string;
  message?: string;
}) {
  const intl = useIntl();
  useEffect(() => {
    if (fontName) loadFontStylesheet(fontName);
  }, [fontName]);
  const cover = intl.formatMessage({ id: 'common.cardPreview.cover', defaultMessage: 'Cover' });
  const greeting = intl.formatMessage({ id: 'common.cardPreview.greeting', defaultMessage: 'Greeting' });

  return (
    <figure className="card-preview" aria-label={intl.formatMessage({ id: 'common.cardPreview.label', defaultMessage: 'Card preview' })}>
      <div className="card-preview-pages">
        <div className="card-book">
          <div className="inside card-preview-cover">{coverPath ? <img className="page-image" src={`/api/${coverPath}`} alt={cover} /> : <Placeholder label={cover} />}</div>
        </div>
        <div className="card-book">
          <div className="inside card-preview-inside">
            {greetingPath ? <img className="page-image" src={`/api/${greetingPath}`} alt={greeting} /> : <Placeholder label={greeting} />}
            <div className={`message card-preview-message ${placementClass(placement)}`}>
              <p style={{ fontFamily: `'${fontName}', cursive, sans-serif` }}>{message ?? intl.formatMessage({ id: 'common.cardPreview.sample', defaultMessage: 'Happy birthday! Wishing you a year full of music and colour.' })}</p>
            </div>
          </div>
        </div>
      </div>
      <figcaption className="card-preview-caption">
        <FormattedMessage id="common.cardPreview.caption" defaultMessage="Preview · {fontName}" values={{ fontName }} />
      </figcaption>
    </figure>
  );
}

function Placeholder({ label }: { label: string }) {
  return (
    <span className="card-preview-placeholder">
      <Icon icon="media" size={18} />
      <span>{label}</span>
    </span>
  );
}
