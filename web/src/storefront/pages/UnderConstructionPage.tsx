import { Link } from 'react-router-dom';
import { Card, H1 } from '@blueprintjs/core';
import { ThemeToggle } from '../../app/ThemeToggle';

/** Shown to everyone but a signed-in admin while the site is under construction. */
export default function UnderConstructionPage() {
  return (
    <div className="auth-page">
      <div className="auth-page-top">
        <span className="brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Art &amp; Song Cards</span>
        </span>
        <ThemeToggle />
      </div>
      <Card className="auth-card under-construction" elevation={2}>
        <img src="/favicon.svg" alt="" width={72} height={72} />
        <H1>We are tuning up</H1>
        <p>The shop is closed for a little while as we make it even better. Please come back soon — your greetings will be worth the wait.</p>
        <p className="muted">
          Running the shop? <Link to="/login">Sign in</Link>
        </p>
      </Card>
    </div>
  );
}
