import { Link } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { Card } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { compareNames } from '../../common/compare-names';
import { ProductTile } from '../common/ProductTile';
import { ShopCategoriesQuery, ShopProductsQuery } from '../shop/shop-operations';
import { pageLocale } from '../../i18n/page-intl';
import '../common/storefront.css';
import './home.css';

const E_GREETING_CARDS = 1;
/** The featured cards of the first row on a phone (two columns, under the hero): the page's largest pictures in view, fetched first. */
const FIRST_IN_VIEW = 2;

/** A few e-greeting cards to start from. */
export function FeaturedCards() {
  const { data } = useQuery(ShopProductsQuery, { variables: { productTypeId: E_GREETING_CARDS, first: 8, locale: pageLocale() } });
  const cards = data?.searchProducts.edges ?? [];
  if (!cards.length) return null;
  return (
    <section className="home-section" aria-labelledby="featured-title">
      <header className="home-section-header">
        <h2 id="featured-title">
          <FormattedMessage id="home.featured.title" defaultMessage="Featured cards" />
        </h2>
        <Link to="/shop">
          <FormattedMessage id="home.featured.all" defaultMessage="See everything" />
        </Link>
      </header>
      <div className="product-grid">
        {cards.map(({ node }, index) => (
          <ProductTile key={node.id} product={node} priority={index < FIRST_IN_VIEW} />
        ))}
      </div>
    </section>
  );
}

/** The top of the category tree, as tiles into the shop. */
export function TopCategories() {
  const { data } = useQuery(ShopCategoriesQuery);
  const top = (data?.categories ?? []).filter((c) => c.parentId == null).sort((a, b) => compareNames(a.name, b.name));
  if (!top.length) return null;
  return (
    <section className="home-section" aria-labelledby="categories-title">
      <header className="home-section-header">
        <h2 id="categories-title">
          <FormattedMessage id="home.categories.title" defaultMessage="Shop by occasion" />
        </h2>
      </header>
      <div className="home-categories">
        {top.map((category) => (
          <Link key={category.id} to={`/shop?category=${category.id}`} className="product-tile-link">
            <Card interactive className="home-category">
              {category.imageThumbnailPath ? <img src={`/api/${category.imageThumbnailPath}`} alt="" width={320} height={240} loading="lazy" decoding="async" /> : <span className="home-category-placeholder" />}
              <span>{category.name}</span>
            </Card>
          </Link>
        ))}
      </div>
    </section>
  );
}
