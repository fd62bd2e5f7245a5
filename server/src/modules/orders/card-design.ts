import type { EGreetingCard } from '../catalogue/e-greeting-card.entity.js';
import type { MediaFile } from '../media/media-file.entity.js';

export interface CardMedia {
  /** Served at `/api/{path}`. */
  path: string;
  name: string;
  mimeType: string;
  width: number | null;
  height: number | null;
}

/** An e-card's design as sold, copied into the order item so later product edits never change it. */
export interface CardDesign {
  messageLocation: string;
  fontName: string | null;
  cover: CardMedia | null;
  greeting: CardMedia | null;
  back: CardMedia | null;
  extras: CardMedia[];
  songs: CardMedia[];
}

const media = (file: MediaFile | null): CardMedia | null =>
  file ? { path: file.filePath, name: file.friendlyName, mimeType: file.mimeType, width: file.width ?? null, height: file.height ?? null } : null;

const present = <T>(items: (T | null)[]): T[] => items.filter((item): item is T => item !== null);

/** The design of a card product (its media populated) at the moment of sale. */
export function cardDesignOf(card: EGreetingCard): CardDesign {
  return {
    messageLocation: card.messageLocation,
    fontName: card.fontName,
    cover: media(card.coverImage),
    greeting: media(card.greetingImage),
    back: media(card.backImage),
    extras: present([card.extraImage1, card.extraImage2, card.extraImage3].map(media)),
    songs: present([card.song1, card.song2, card.song3].map(media)),
  };
}
