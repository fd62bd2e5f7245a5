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
