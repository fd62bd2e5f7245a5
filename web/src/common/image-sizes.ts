/**
 * How wide the storefront draws its pictures, as `sizes` attributes: the browser picks the file of
 * an image's `srcset` from them. The server preloads a page's main picture with the same values
 * (gateway/src/initial-queries.ts; a unit test holds them equal).
 */
export const IMAGE_SIZES = {
  /** A product tile: two columns on a phone, about 240 px in the grid elsewhere. */
  tile: '(max-width: 640px) 50vw, 240px',
  /** A page of an e-greeting card: the page's width on a phone, under half of it beside the form. */
  card: '(max-width: 760px) 92vw, 460px',
  /** A product's main picture: the page's width on a phone, under half of it beside the text. */
  gallery: '(max-width: 760px) 92vw, 500px',
} as const;
