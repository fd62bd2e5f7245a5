import type { ImgHTMLAttributes } from 'react';

/** What a stored image tells about itself (MediaFile's fields). */
export interface StoredImage {
  filePath: string;
  thumbnailPath?: string | null;
  width?: number | null;
  height?: number | null;
  srcSet?: string | null;
}

interface Props extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'width' | 'height'> {
  image: StoredImage;
  /** How wide the image is drawn, as the `sizes` attribute (the browser picks the file from it). */
  sizes: string;
  alt: string;
  /** The page's largest picture, in view at once: fetched first and never lazily. */
  priority?: boolean;
}

/**
 * A stored image with its responsive sizes (`srcset`), its intrinsic `width`/`height` (the space
 * is kept before it arrives: no layout shift) and lazy loading unless it is the page's main picture.
 */
export function ResponsiveImage({ image, sizes, alt, priority = false, ...rest }: Props) {
  return (
    <img
      {...rest}
      src={`/api/${image.srcSet ? (image.thumbnailPath ?? image.filePath) : image.filePath}`}
      srcSet={image.srcSet ?? undefined}
      sizes={image.srcSet ? sizes : undefined}
      width={image.width ?? undefined}
      height={image.height ?? undefined}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding={priority ? 'auto' : 'async'}
    />
  );
}
