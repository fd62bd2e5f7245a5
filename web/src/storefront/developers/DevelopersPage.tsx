import { useEffect, useState } from 'react';
import { Classes } from '@blueprintjs/core';
import { useShop } from '../../settings/shop-store';
import { codeSamples } from './developers-content';
import { AuthenticationSection, PaginationSection, ScopesSection } from './ApiSections';
import { ErrorsSection, ExplorerSection, RateLimitsSection, WebhooksSection } from './IntegrationSections';
import '../common/storefront.css';
import './developers.css';

/** The sections, in the order the page shows them (the table of contents is made from this). */
const SECTIONS = [
  { id: 'authentication', title: 'Authentication' },
  { id: 'scopes', title: 'Scopes' },
  { id: 'pagination', title: 'Pagination' },
  { id: 'errors', title: 'Errors' },
  { id: 'rate-limits', title: 'Rate limits' },
  { id: 'webhooks', title: 'Webhooks' },
  { id: 'explorer', title: 'Explorer' },
] as const;

/**
 * The shop's address in the code samples. The server draws the page without knowing how the
 * visitor reached it, so a placeholder is drawn first and the browser's own address put in once the
 * page is the browser's (an effect: after hydration, never during it).
 */
function useOrigin(): string {
  const [origin, setOrigin] = useState('https://your-shop.example');
  useEffect(() => setOrigin(window.location.origin), []);
  return origin;
}

/**
 * /developers: the API's documentation for those who build on the shop (contract section 19):
 * credentials, scopes, pagination, errors, rate limits, webhooks and the explorer with a key.
 * Drawn by the server like the other storefront pages; its code is loaded for this page alone.
 */
export default function DevelopersPage() {
  const { name } = useShop();
  const samples = codeSamples(useOrigin());
  return (
    <div className="store-page developers-page">
      <header className="developers-intro">
        <p className="developers-eyebrow">Developers</p>
        <h1>Build on {name}</h1>
        <p className="developers-lede">
          Read the catalogue, follow orders and customers, and hear about what happens as it happens. One API answers in two forms: REST under <code>/api</code> and GraphQL at{' '}
          <code>/graphql</code>, with the same data, the same rules and the same keys. Every type and field of the GraphQL schema is described: <a href="#explorer">open the explorer</a> to read
          them.
        </p>
      </header>
      <div className="developers-layout">
        <nav className="developers-toc" aria-labelledby="developers-toc-title">
          <h2 id="developers-toc-title" className="developers-toc-title">
            On this page
          </h2>
          <ol>
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        <div className={`developers-body ${Classes.RUNNING_TEXT}`}>
          <AuthenticationSection samples={samples} />
          <ScopesSection />
          <PaginationSection samples={samples} />
          <ErrorsSection samples={samples} />
          <RateLimitsSection samples={samples} />
          <WebhooksSection samples={samples} />
          <ExplorerSection />
        </div>
      </div>
    </div>
  );
}
