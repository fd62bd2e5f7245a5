import { Link } from 'react-router-dom';
import { Card, Icon } from '@blueprintjs/core';
import { graphql } from '../../apollo/generated';
import type { ProductTile_ProductFragment } from '../../apollo/generated/graphql';
import { formatPrice } from './price';
import './storefront.css';

export const ProductTileFragment = graphql(`
  fragment ProductTile_product on Product {
    id
    name
    price
    mainImageThumbnailPath
    productTypeId
  }
`);

/** A product in a grid: its picture, name and price, linking to its page. */
export function ProductTile({ product }: { product: ProductTile_ProductFragment }) {
  return (
    <Link to={`/product/${product.id}`} className="product-tile-link">
      <Card className="product-tile" interactive>
        <div className="product-tile-image">
          {product.mainImageThumbnailPath ? <img src={`/api/${product.mainImageThumbnailPath}`} alt="" loading="lazy" /> : <Icon icon="media" size={40} />}
        </div>
        <div className="product-tile-text">
          <span className="product-tile-name">{product.name}</span>
          <span className="product-tile-price">{formatPrice(product.price)}</span>
        </div>
      </Card>
    </Link>
  );
}
