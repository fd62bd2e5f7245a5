import { Link } from 'react-router-dom';
import { Button, Icon } from '@blueprintjs/core';
import { useShop } from '../../settings/shop-store';
import { HeroArt } from './HeroArt';
import { FeaturedCards, TopCategories } from './HomeSections';

/** The public home page: the hero with the shop's name, featured cards and the top categories. */
export default function HomePage() {
  const { name } = useShop();
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <HeroArt />
        <div className="hero-text">
          <h1 id="hero-title" className={`hero-title${name.length > 24 ? ' hero-title-long' : ''}`}>
            {name}
          </h1>
          <p className="hero-tagline">Beautiful greetings without the wait.</p>
          <p className="hero-lead">E-greeting cards that carry songs, pictures and your own words in the font you choose — delivered the moment you want them.</p>
          <div className="hero-actions">
            <Link to="/shop">
              <Button size="large" intent="primary" icon="shop" text="Browse cards" tabIndex={-1} />
            </Link>
            <Link to="/blog">
              <Button size="large" variant="outlined" icon="manual" text="Read the blog" tabIndex={-1} />
            </Link>
          </div>
        </div>
      </section>
      <FeaturedCards />
      <TopCategories />
      <section className="home-features" aria-label={`Why ${name}`}>
        <Feature icon="music" title="Songs inside">Up to three songs play when the card opens.</Feature>
        <Feature icon="media" title="Pictures and your words">A cover, a greeting image with your message, and a back.</Feature>
        <Feature icon="time" title="Delivered on the day">Send it now, or on the day that matters.</Feature>
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
