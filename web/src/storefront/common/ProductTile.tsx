import { Link } from 'react-router-dom';
import { Card, Icon } from '@blueprintjs/core';
import { graphql } from '../../apollo/generated';
import type { ProductTile_ProductFragment } from '../../apollo/generated/graphql';
import { ResponsiveImage } from '../../common/ResponsiveImage';
import { IMAGE_SIZES } from '../../common/image-sizes';
import { SalePrice } from './SalePrice';
import './storefront.css';

export const ProductTileFragment = graphql(`
  fragment ProductTile_product on Product {
    id
    name
    price
    compareAtPrice
    productTypeId
    mainImage {
      id
      filePath
      thumbnailPath
      width
      height
      srcSet
    }
  }
`);


/** A product in a grid: its picture, name and price, linking to its page. `priority` for the tiles first in view. */
export function ProductTile({ product, priority = false, typeName = null }: { product: ProductTile_ProductFragment; priority?: boolean; typeName?: string | null }) {
  return (
    <Link to={`/product/${product.id}`} className="product-tile-link">
      <Card className="product-tile" interactive>
        <div className="product-tile-image">
          {product.mainImage ? <ResponsiveImage image={product.mainImage} sizes={IMAGE_SIZES.tile} alt="" priority={priority} /> : <Icon icon="media" size={40} />}
        </div>
        <div className="product-tile-text">
          {typeName && <span className="product-tile-type">{typeName}</span>}
          <span className="product-tile-name">{product.name}</span>
          <SalePrice className="product-tile-price" price={product.price} compareAt={product.compareAtPrice} />
        </div>
      </Card>
    </Link>
  );
}
