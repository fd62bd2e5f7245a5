import { useEffect } from 'react';
import { Icon } from '@blueprintjs/core';
import type { MessageLocation } from '../../apollo/generated/graphql';
import { loadFontStylesheet } from '../fonts/font-stylesheet';
import { placementClass } from './placement';
import './opening-card.css';
import './card-preview.css';

export const SAMPLE_MESSAGE = 'Happy birthday! Wishing you a year full of music and colour.';

/**
 * A small live preview of an e-greeting card: the cover beside the inside, where the message sits at
 * its placement in the card's font. Its pages are the pages of the recipient's card (opening-card.css).
 */
export function CardPreview({
  coverPath,
  greetingPath,
  placement,
  fontName,
  message = SAMPLE_MESSAGE,
}: {
  coverPath?: string | null;
  greetingPath?: string | null;
  placement: MessageLocation;
  fontName: string;
  message?: string;
}) {
  useEffect(() => {
    if (fontName) loadFontStylesheet(fontName);
  }, [fontName]);

  return (
    <figure className="card-preview" aria-label="Card preview">
      <div className="card-preview-pages">
        <div className="card-book">
          <div className="inside card-preview-cover">{coverPath ? <img className="page-image" src={`/api/${coverPath}`} alt="Cover" /> : <Placeholder label="Cover" />}</div>
        </div>
        <div className="card-book">
          <div className="inside card-preview-inside">
            {greetingPath ? <img className="page-image" src={`/api/${greetingPath}`} alt="Greeting" /> : <Placeholder label="Greeting" />}
            <div className={`message card-preview-message ${placementClass(placement)}`}>
              <p style={{ fontFamily: `'${fontName}', cursive, sans-serif` }}>{message}</p>
            </div>
          </div>
        </div>
      </div>
      <figcaption className="card-preview-caption">
        Preview · {fontName}
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
