import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { fillName, GIFT_CARD_MAX_AMOUNT, GIFT_CARD_MIN_AMOUNT, hourText, isGiftCardType, isGiftMembershipType, songTitle } from '@rules';
import { FormattedMessage, useIntl } from 'react-intl';
import { SongPlayer } from '../../common/song/SongPlayer';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Classes, Spinner } from '@blueprintjs/core';
import { snackbarWithAction } from '../common/store-toast';
import { SalePrice } from '../common/SalePrice';
import { productTypeName } from '../common/product-type-name';
import { cart, useCartLine } from '../cart/cart-store';
import type { CardPersonalisation } from '../cart/cart-lines';
import { OpeningCard } from './OpeningCard';
import { PersonalisationForm } from './PersonalisationForm';
import { GiftCardForm } from './GiftCardForm';
import { GiftMembershipForm } from './GiftMembershipForm';
import { formatPrice } from '../common/price';
import { browserTimeZone, emptyPersonalisation } from './personalisation-rules';
import { StoreProductQuery } from './product-operations';
import { pageLocale } from '../../i18n/page-intl';
import { useShop } from '../../settings/shop-store';
import '../common/storefront.css';
import './product-page.css';
import { EmptyState } from '../../common/EmptyState';
import { localRecipientNames } from '../cart/recipient-names';
import { CardWithPictures, Description, Gallery } from './ProductPictures';

// The preview's dialog (and Blueprint's overlays) load when a shopper first asks for it.
const RecipientPreviewDialog = lazy(() => import('../preview/RecipientPreviewDialog'));

/** /product/{id}: pictures, songs and price; a card is personalised with a live preview, anything else goes straight into the cart. */
export default function ProductOrderPage() {
  const id = Number(useParams().id);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const editing = useCartLine(params.get('line'), id);
  // A new card offers the shop's default hour (Settings); the shopper picks another at will.
  const shop = useShop();
  const intl = useIntl();
  const blank = () => emptyPersonalisation('', hourText(shop.defaultDeliveryHour));
  const [personalisation, setPersonalisation] = useState<CardPersonalisation>(() => editing?.personalisation ?? blank());
  // The cart is the browser's: a page the server drew starts without it, and the card being changed fills the form once it is read.
  const [filledFrom, setFilledFrom] = useState(editing?.id);
  if (editing?.personalisation && filledFrom !== editing.id) {
    setFilledFrom(editing.id);
    setPersonalisation(editing.personalisation);
  }
  // What the last "Add to cart" put in the cart, said beside the form (a toast would cover it).
  const [inCart, setInCart] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState<CardPersonalisation | null>(null);
  const { data, loading, error } = useQuery(StoreProductQuery, { variables: { id, locale: pageLocale() }, skip: !Number.isSafeInteger(id) || id <= 0 });
  const product = data?.product;
  // A new card's message starts as the card's default message, in the page's language.
  const defaultMessage = product?.eGreetingCard?.defaultMessage ?? '';
  const [startedFrom, setStartedFrom] = useState<number | null>(null);
  if (product && !editing && startedFrom !== product.id) {
    setStartedFrom(product.id);
    if (defaultMessage && !personalisation.message) setPersonalisation({ ...personalisation, message: defaultMessage });
  }

  if (loading && !product) return <Spinner className="store-state" />;
  if (!product) {
    const missing = !error || error.message.includes('not found') || !Number.isSafeInteger(id);
    return (
      <div className="store-page">
        <EmptyState level={1}
          icon={missing ? 'search' : 'error'}
          title={missing ? intl.formatMessage({ id: 'product.notFound.title', defaultMessage: 'Product not found' }) : intl.formatMessage({ id: 'product.error.title', defaultMessage: 'The product could not be loaded' })}
          description={missing ? intl.formatMessage({ id: 'product.notFound.description', defaultMessage: 'It may have been removed from the shop.' }) : error?.message}
          action={
            <Link to="/shop">
              <FormattedMessage id="product.backToShop" defaultMessage="Back to the shop" />
            </Link>
          }
        />
      </div>
    );
  }

  const card = product.eGreetingCard;
  const giftCard = isGiftCardType(product.productType.name);
  const giftMembership = isGiftMembershipType(product.productType.name);
  const firstName = personalisation.recipients[0]?.name.trim() ?? '';
  const songs = card ? [card.song1, card.song2, card.song3].filter((song) => song !== null && song !== undefined) : [];
  const gallery = [product.mainImage ? { ...product.mainImage, friendlyName: product.name } : null, ...product.associatedImages].filter((image) => image !== null);

  const added = (text: string) => void snackbarWithAction(text, { text: intl.formatMessage({ id: 'product.viewCart', defaultMessage: 'View cart' }), onClick: () => navigate('/cart') });

  const addCard = (entered: CardPersonalisation) => {
    // The visitor's time zone is read when the card is added: reading it costs a phone a moment the first screen needs.
    const value = { ...entered, timeZone: entered.timeZone || browserTimeZone(shop.timeZone) };
    if (editing) {
      cart.setPersonalisation(editing.id, value);
      navigate('/cart');
      return;
    }
    cart.add({ productId: product.id, name: product.name, quantity: value.recipients.length, personalisation: value });
    setInCart(intl.formatMessage({ id: 'product.card.added', defaultMessage: '“{product}” for {recipients} is in your cart.' }, { product: product.name, recipients: localRecipientNames(intl, value.recipients) }));
    // A next card, most often from the same sender: their name stays.
    setPersonalisation({ ...blank(), senderName: value.senderName, message: defaultMessage });
  };

  // One gallery: a card's own pages open in the card; its other pictures are thumbnails beside it.
  const coverId = card?.coverImage?.id ?? product.mainImage?.id;
  const pictures = card ? gallery.filter((image, index) => image.id !== coverId && gallery.findIndex((other) => other.id === image.id) === index) : gallery;
  const songList = songs.length > 0 && (
    <section className="product-songs" aria-label={intl.formatMessage({ id: 'product.songs.label', defaultMessage: 'Songs' })}>
      <h2>
        <FormattedMessage id="product.songs.title" defaultMessage="Songs on this card" />
      </h2>
      {songs.map((song) => (
        <SongPlayer key={song!.id} title={songTitle(song!.friendlyName)} src={`/api/${song!.filePath}`} />
      ))}
    </section>
  );

  return (
    <div className="store-page product-page">
      {/* Only admins can open a product that is not in the shop. */}
      {product.status !== 'ACTIVE' && (
        <Callout intent="warning" icon={product.status === 'DRAFT' ? 'edit' : 'archive'} className="product-status-ribbon" role="note">
          <FormattedMessage
            id="product.status.hidden"
            defaultMessage="{status, select, draft {Draft} other {Archived}}: shoppers do not see this product; only admins can open this page."
            values={{ status: product.status === 'DRAFT' ? 'draft' : 'archived' }}
          />
        </Callout>
      )}
      {/* The card and the form are hydrated each in a task of its own (Layout.tsx). */}
      <div className="product-visual">
        <Suspense>
          {card ? (
            <CardWithPictures
              pictures={pictures}
              name={product.name}
              card={
                <OpeningCard
                  cover={card.coverImage ?? product.mainImage}
                  greeting={card.greetingImage}
                  back={card.backImage}
                  placement={card.messageLocation}
                  fontName={card.fontName ?? null}
                  // The preview shows the first recipient's card, `{name}` filled as the shop fills it.
                  message={firstName ? fillName(personalisation.message, firstName) : personalisation.message}
                  recipientName={firstName}
                />
              }
              cardThumbnail={card.coverImage ?? product.mainImage}
            />
          ) : (
            <Gallery images={gallery} name={product.name} />
          )}
        </Suspense>
        {card && songList}
      </div>
      <div className="product-info">
        {/* On a phone: the card, this, the songs, then the form (product-page.css). */}
        <div className="product-head">
          <p className="muted product-type">{productTypeName(intl, product.productType.name)}</p>
          <h1>{product.name}</h1>
          <p className="product-price">
            {giftCard ? (
              <FormattedMessage id="product.giftCard.priceRange" defaultMessage="{min} to {max}" values={{ min: formatPrice(GIFT_CARD_MIN_AMOUNT), max: formatPrice(GIFT_CARD_MAX_AMOUNT) }} />
            ) : giftMembership ? (
              <FormattedMessage id="product.giftMembership.price" defaultMessage="Priced by the plan you choose" />
            ) : (
              <SalePrice price={product.price} compareAt={product.compareAtPrice} />
            )}
          </p>
          {product.description && <Description text={product.description} />}
          {product.tags.length > 0 && (
            <div className="product-tags">
              {product.tags.map((tag) => (
                <Link key={tag} to={`/shop?q=${encodeURIComponent(tag)}`}>
                  {/* A tag's look without its component: this page's script stays small. */}
                  <span className={`${Classes.TAG} ${Classes.MINIMAL} ${Classes.ROUND} ${Classes.INTERACTIVE}`}>
                    <span className={`${Classes.TEXT_OVERFLOW_ELLIPSIS} ${Classes.FILL}`}>{tag}</span>
                  </span>
                </Link>
              ))}
            </div>
          )}
        </div>
        {card ? (
          <section className="product-personalise" aria-label={intl.formatMessage({ id: 'product.personalise.label', defaultMessage: 'Personalise' })}>
            <h2>{editing ? intl.formatMessage({ id: 'product.personalise.change', defaultMessage: 'Change your card' }) : intl.formatMessage({ id: 'product.personalise.title', defaultMessage: 'Make it yours' })}</h2>
            {editing && (
              <Callout intent="primary" icon="edit" className="product-editing">
                <FormattedMessage id="product.personalise.editing" defaultMessage="You are changing a card that is already in your cart." />
              </Callout>
            )}
            {inCart && (
              <Callout intent="success" icon="tick-circle" className="product-added" role="status">
                {inCart} <Link to="/cart"><FormattedMessage id="product.viewCart" defaultMessage="View cart" /></Link>
              </Callout>
            )}
            <Suspense>
              <PersonalisationForm
                value={personalisation}
                onChange={setPersonalisation}
                onSubmit={addCard}
                onPreview={(entered) => setPreviewing({ ...entered, timeZone: entered.timeZone || browserTimeZone() })}
                submitText={editing ? intl.formatMessage({ id: 'product.updateInCart', defaultMessage: 'Update card in cart' }) : intl.formatMessage({ id: 'product.addToCart', defaultMessage: 'Add to cart' })}
                price={product.price}
              />
            </Suspense>
            {previewing && (
              <Suspense>
                <RecipientPreviewDialog productId={product.id} personalisation={previewing} onClose={() => setPreviewing(null)} />
              </Suspense>
            )}
          </section>
        ) : giftCard ? (
          <section className="product-personalise" aria-label={intl.formatMessage({ id: 'product.giftCard.label', defaultMessage: 'Gift card' })}>
            <h2><FormattedMessage id="product.gift.title" defaultMessage="Give it to someone" /></h2>
            {inCart && (
              <Callout intent="success" icon="tick-circle" className="product-added" role="status">
                {inCart} <Link to="/cart"><FormattedMessage id="product.viewCart" defaultMessage="View cart" /></Link>
              </Callout>
            )}
            <GiftCardForm
              onAdd={(choice) => {
                cart.add({ productId: product.id, name: product.name, quantity: 1, personalisation: null, giftCard: choice });
                setInCart(intl.formatMessage({ id: 'product.giftCard.added', defaultMessage: 'A {amount} gift card for {recipient} is in your cart.' }, { amount: formatPrice(choice.amount), recipient: choice.recipientName }));
              }}
            />
          </section>
        ) : giftMembership ? (
          <section className="product-personalise" aria-label={intl.formatMessage({ id: 'product.giftMembership.label', defaultMessage: 'Gift membership' })}>
            <h2><FormattedMessage id="product.gift.title" defaultMessage="Give it to someone" /></h2>
            {inCart && (
              <Callout intent="success" icon="tick-circle" className="product-added" role="status">
                {inCart} <Link to="/cart"><FormattedMessage id="product.viewCart" defaultMessage="View cart" /></Link>
              </Callout>
            )}
            <GiftMembershipForm
              onAdd={(choice, price) => {
                cart.add({ productId: product.id, name: product.name, quantity: 1, personalisation: null, giftMembership: choice });
                setInCart(intl.formatMessage({ id: 'product.giftMembership.added', defaultMessage: 'A {plan} membership ({price}) for {recipient} is in your cart.' }, { plan: choice.planName, price: formatPrice(price), recipient: choice.recipientName }));
              }}
            />
          </section>
        ) : (
          <>
            {songList}
            <Button
              intent="primary"
              size="large"
              icon="shopping-cart"
              text={intl.formatMessage({ id: 'product.addToCart', defaultMessage: 'Add to cart' })}
              onClick={() => {
                cart.add({ productId: product.id, name: product.name, quantity: 1, personalisation: null });
                added(intl.formatMessage({ id: 'product.added', defaultMessage: '“{product}” is in your cart.' }, { product: product.name }));
              }}
            />
          </>
        )}
      </div>
    </div>
  );
}
