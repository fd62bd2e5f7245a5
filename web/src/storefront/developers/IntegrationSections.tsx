import { HTMLTable } from '@blueprintjs/core';
import type { Samples } from './ApiSections';
import { CodeSample } from './CodeSample';
import { API_ERRORS, WEBHOOK_EVENTS } from './developers-content';
import { ExplorerLauncher } from './ExplorerLauncher';
import { RECEIVE_WEBHOOK_EXAMPLE, VERIFY_WEBHOOK_EXAMPLE } from './verify-webhook-example';

export function ErrorsSection({ samples }: { samples: Samples }) {
  return (
    <section id="errors" className="developers-section" aria-labelledby="errors-title">
      <h2 id="errors-title">Errors</h2>
      <p>
        An error says what went wrong twice: <code>message</code>, a sentence for people, and <code>code</code>, a constant for programs to act on. When one input is at fault, <code>field</code>{' '}
        names it. No answer ever carries a stack trace.
      </p>
      <h3>REST</h3>
      <p>
        Every error under <code>/api</code> is JSON <code>{'{message, code}'}</code> (with <code>field</code>, in the REST spelling, when there is one) and the HTTP status below.
      </p>
      <CodeSample title="A REST error" language="http" code={samples.restError} />
      <h3>GraphQL</h3>
      <p>
        Errors come in <code>errors</code>, each with <code>extensions.code</code> (and <code>extensions.field</code> or <code>extensions.retryAfter</code> when they apply); the fields that could be
        answered still are. The HTTP status stays 200, except for <code>RATE_LIMITED</code> (429) and <code>UNDER_CONSTRUCTION</code>, <code>SERVICE_UNAVAILABLE</code> and{' '}
        <code>PAYMENTS_UNAVAILABLE</code> (503). A document that cannot be parsed or is refused before it runs (deeper than 15 levels, or past the cost bound) answers 400 with{' '}
        <code>GRAPHQL_PARSE_FAILED</code> or <code>GRAPHQL_VALIDATION_FAILED</code>.
      </p>
      <CodeSample title="A GraphQL error" language="json" code={samples.graphqlError} />
      <h3>Statuses and codes</h3>
      <div className="developers-table-wrap">
        <HTMLTable compact className="developers-table developers-errors">
          <caption className="visually-hidden">HTTP statuses and their error codes</caption>
          <thead>
            <tr>
              <th scope="col">Status and codes</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {API_ERRORS.map((row) => (
              <tr key={row.status}>
                <th scope="row">
                  <span className="developers-status">{row.status}</span>
                  <span className="developers-codes">
                    {row.codes.map((code) => (
                      <code key={code}>{code}</code>
                    ))}
                  </span>
                </th>
                <td>{withCode(row.meaning)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      <p>
        Checkout may also answer <code>402 PAYMENT_DECLINED</code> (the card was refused) and <code>502 PAYMENT_FAILED</code> (the payment provider could not be asked; nothing was charged). A{' '}
        <code>500 INTERNAL_SERVER_ERROR</code> is the shop’s fault: try again later.
      </p>
    </section>
  );
}

/** Text with `code` spans, as the content file writes them. */
function withCode(text: string) {
  return text.split(/(`[^`]+`)/).map((part, i) => (part.startsWith('`') ? <code key={i}>{part.slice(1, -1)}</code> : part));
}

export function RateLimitsSection({ samples }: { samples: Samples }) {
  return (
    <section id="rate-limits" className="developers-section" aria-labelledby="rate-limits-title">
      <h2 id="rate-limits-title">Rate limits</h2>
      <p>
        Each API key has its own count of requests; every request without a live key (anonymous, a person’s token, an unknown or revoked key) counts against its client address, an IPv6 client by its
        /64. The limit is <strong>600 requests a minute</strong> unless the shop set another. Every answer of <code>/api</code> and <code>/graphql</code>, errors and cached answers included, says
        where the count stands:
      </p>
      <dl className="developers-headers">
        <dt>
          <code>RateLimit-Limit</code>
        </dt>
        <dd>The requests allowed in a window of a minute.</dd>
        <dt>
          <code>RateLimit-Remaining</code>
        </dt>
        <dd>What is left of them in this window.</dd>
        <dt>
          <code>RateLimit-Reset</code>
        </dt>
        <dd>Seconds until the window starts afresh.</dd>
      </dl>
      <CodeSample title="Every answer" language="http" code={samples.rateHeaders} />
      <p>
        Past the limit the answer is <code>429</code> with <code>Retry-After</code> (seconds) and the usual error body, code <code>RATE_LIMITED</code>. Wait that long; do not retry at once. Stored
        media under <code>/api/uploads</code> are not counted. The count is kept for the whole shop, so the headers of two answers in the same second can differ by a request or two.
      </p>
      <CodeSample title="A request past the limit" language="http" code={samples.rateLimited} />
      <CodeSample title="A client that waits when told to" language="js" code={samples.politeClient} />
    </section>
  );
}

export function WebhooksSection({ samples }: { samples: Samples }) {
  return (
    <section id="webhooks" className="developers-section" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p>
        Webhooks tell your server when something happens in the shop, so it need not ask over and over. An admin adds an endpoint in the console’s <strong>Webhooks</strong> view: its URL, the events
        it wants and a secret, shown once, that signs every delivery to it.
      </p>
      <h3>Events</h3>
      <div className="developers-table-wrap">
        <HTMLTable compact className="developers-table developers-events">
          <caption className="visually-hidden">Webhook events</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Sent when</th>
            </tr>
          </thead>
          <tbody>
            {WEBHOOK_EVENTS.map((event) => (
              <tr key={event.type}>
                <th scope="row">
                  <code>{event.type}</code>
                </th>
                <td>
                  {event.when} <span className="developers-event-data">
                    <code>data</code>: <code>{event.data}</code>
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      <h3>Deliveries</h3>
      <p>
        A delivery is a <code>POST</code> of JSON <code>{'{id, type, created_at, data}'}</code>: the event’s id, its type, when it happened, and the objects it is about (an order with its lines, a card, a product, a customer; never a card’s message or private link). Two headers come with it:{' '}
        <code>ArtSong-Event-Id</code>, the event’s id again, and <code>ArtSong-Signature</code>, <code>t=</code> the time it was signed in Unix seconds and <code>v1=</code> the hex HMAC-SHA256 of{' '}
        <code>{'{t}.{body}'}</code> made with the endpoint’s secret.
      </p>
      <CodeSample title="A delivery" language="http" code={samples.webhookDelivery} />
      <ul>
        <li>
          Any <strong>2xx</strong> answer within <strong>10 seconds</strong> is a success. Anything else (another status, a timeout, no connection) is retried with backoff, the first retry within a
          minute and then twice as long each time, at most an hour apart, for <strong>3 days</strong>. An endpoint that fails for 3 days is turned off and the shop’s admins are e-mailed.
        </li>
        <li>
          Each event is delivered <strong>at least once</strong>, always with the same id: remember the ids you have handled and ignore a repeat. Deliveries to one endpoint may arrive out of order.
        </li>
        <li>Answer first and do slow work after: a handler that takes longer than 10 seconds is a failure, and the event comes again.</li>
      </ul>
      <h3>Verifying a delivery</h3>
      <p>
        Check every delivery before trusting it: make the HMAC of <code>{'{t}.{body}'}</code> over the body exactly as it arrived (before any JSON parsing), compare it with <code>v1</code> in
        constant time, and refuse a timestamp more than 5 minutes away, so that a recorded delivery cannot be played again later.
      </p>
      <CodeSample title="verify-webhook.js (Node)" language="js" code={VERIFY_WEBHOOK_EXAMPLE} />
      <CodeSample title="An Express endpoint that uses it" language="js" code={RECEIVE_WEBHOOK_EXAMPLE} />
    </section>
  );
}

export function ExplorerSection() {
  return (
    <section id="explorer" className="developers-section" aria-labelledby="explorer-title">
      <h2 id="explorer-title">Explorer</h2>
      <p>
        The GraphQL explorer lists every query, mutation, type and field with its description, completes what you type and runs it against this shop. Paste an API key to try the API with that key’s
        scopes: the explorer opens in a new tab with <code>Authorization: Bearer</code> and your key in its Headers.
      </p>
      <ExplorerLauncher />
      <p>
        Signed in to the shop? <a href="/graphql">Open the explorer as yourself</a>: it sends your own session’s token. (A shop may turn the explorer off, with its introspection.)
      </p>
    </section>
  );
}
