import { Link } from 'react-router-dom';
import { Button, Icon } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useShop } from '../../settings/shop-store';
import { HeroArt } from './HeroArt';
import { FeaturedCards, TopCategories } from './HomeSections';

/** The public home page: the hero with the shop's name, featured cards and the top categories. */
export default function HomePage() {
  const { name } = useShop();
  const intl = useIntl();
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <HeroArt />
        <div className="hero-text">
          <h1 id="hero-title" className={`hero-title${name.length > 24 ? ' hero-title-long' : ''}`}>
            {name}
          </h1>
          <p className="hero-tagline">
            <FormattedMessage id="home.hero.tagline" defaultMessage="Beautiful greetings without the wait." />
          </p>
          <p className="hero-lead">
            <FormattedMessage id="home.hero.lead" defaultMessage="E-greeting cards that carry songs, pictures and your own words in the font you choose — delivered the moment you want them." />
          </p>
          <div className="hero-actions">
            <Link to="/shop">
              <Button size="large" intent="primary" icon="shop" text={intl.formatMessage({ id: 'home.hero.browse', defaultMessage: 'Browse cards' })} tabIndex={-1} />
            </Link>
            <Link to="/blog">
              <Button size="large" variant="outlined" icon="manual" text={intl.formatMessage({ id: 'home.hero.blog', defaultMessage: 'Read the blog' })} tabIndex={-1} />
            </Link>
          </div>
        </div>
      </section>
      <FeaturedCards />
      <TopCategories />
      <section className="home-features" aria-label={intl.formatMessage({ id: 'home.features.label', defaultMessage: 'Why {name}' }, { name })}>
        <Feature icon="music" title={intl.formatMessage({ id: 'home.features.songs.title', defaultMessage: 'Songs inside' })}>
          {intl.formatMessage({ id: 'home.features.songs.text', defaultMessage: 'Up to three songs play when the card opens.' })}
        </Feature>
        <Feature icon="media" title={intl.formatMessage({ id: 'home.features.pictures.title', defaultMessage: 'Pictures and your words' })}>
          {intl.formatMessage({ id: 'home.features.pictures.text', defaultMessage: 'A cover, a greeting image with your message, and a back.' })}
        </Feature>
        <Feature icon="time" title={intl.formatMessage({ id: 'home.features.delivery.title', defaultMessage: 'Delivered on the day' })}>
          {intl.formatMessage({ id: 'home.features.delivery.text', defaultMessage: 'Send it now, or on the day that matters.' })}
        </Feature>
      </section>
    </div>
  );
}

function Feature({ icon, title, children }: { icon: 'music' | 'media' | 'time'; title: string; children: string }) {
  return (
    <div className="home-feature">
      <Icon icon={icon} size={28} className="home-feature-icon" />
      <h2>{title}</h2>
      <p>{children}</p>
    </div>
  );
}
