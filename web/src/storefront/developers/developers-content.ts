/**
 * What /developers says that is not prose: the error statuses with their codes (held to the
 * gateway's table by tests/unit/developers-docs.test.ts), the webhook events (contract section 19),
 * and the code samples, written for the shop's own address.
 */
import { WEBHOOK_EVENTS as SHOP_WEBHOOK_EVENTS, type WebhookEventType } from '@rules';

export interface ErrorStatus {
  status: number;
  /** Every `code` the API answers with this status. */
  codes: readonly string[];
  meaning: string;
}

/** The statuses an integration meets, each with every code that answers it. */
export const API_ERRORS: readonly ErrorStatus[] = [
  {
    status: 400,
    codes: ['BAD_USER_INPUT', 'TOKEN_INVALID', 'PRODUCT_UNAVAILABLE', 'DISCOUNT_NOT_APPLICABLE', 'RECIPIENT_UNSUBSCRIBED'],
    meaning: 'The request cannot be done as sent: a value is missing or wrong (`field` names it), a link’s token is used or expired, a product left the shop, a discount’s rules refuse the cart, a recipient said no to the shop’s e-mail.',
  },
  { status: 401, codes: ['UNAUTHENTICATED'], meaning: 'No credentials where some are needed, or a token or key that is unknown, expired or revoked.' },
  {
    status: 403,
    codes: ['FORBIDDEN', 'REAUTHENTICATE'],
    meaning: 'The caller is known but not allowed: a key outside its scopes, a shopper calling an admin operation. `REAUTHENTICATE` asks a person for their current password again.',
  },
  { status: 404, codes: ['NOT_FOUND'], meaning: 'No such thing: an unknown id in the path, or an address the API does not have.' },
  { status: 409, codes: ['CONFLICT'], meaning: 'The change clashes with what is there: a name or code already taken, an order that cannot be refunded, a deadline passed.' },
  { status: 413, codes: ['PAYLOAD_TOO_LARGE'], meaning: 'The body is over 1 MB, or a file is over the upload limit (25 MB unless the shop set another).' },
  { status: 415, codes: ['UNSUPPORTED_MEDIA_TYPE'], meaning: 'An upload that is not an image or song the shop takes (judged by its bytes, not its name), or a body in an encoding the API does not read.' },
  { status: 429, codes: ['RATE_LIMITED'], meaning: 'Past a limit: wait the seconds `Retry-After` gives, then try again.' },
  {
    status: 503,
    codes: ['SERVICE_UNAVAILABLE', 'UNDER_CONSTRUCTION', 'PAYMENTS_UNAVAILABLE'],
    meaning: 'Try again later: the database is away for a moment, the shop is closed while it is being built, or it takes no payments yet. `Retry-After` says when, where it can.',
  },
];

/** The events a webhook endpoint may subscribe to (contract section 19): the shop's own list, with what each one's `data` carries. */
const EVENT_DATA: Record<WebhookEventType, string> = {
  'order.paid': '{order}',
  'order.refunded': '{order, refund}',
  'order.delivered': '{order}',
  'card.opened': '{card}',
  'card.replied': '{card, reply}',
  'product.created': '{product}',
  'product.updated': '{product}',
  'product.deleted': '{product}',
  'customer.created': '{customer}',
};
export const WEBHOOK_EVENTS: readonly { type: WebhookEventType; when: string; data: string }[] = SHOP_WEBHOOK_EVENTS.map((event) => ({ type: event.type, when: event.help, data: EVENT_DATA[event.type] }));

/** The code samples of the page, with the shop's address in them. */
export function codeSamples(origin: string) {
  return {
    keyRest: `curl ${origin}/api/admin/orders \\
  -H "Authorization: Bearer $ART_SONG_KEY"`,
    keyGraphql: `curl ${origin}/graphql \\
  -H "Authorization: Bearer $ART_SONG_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"query": "{ orders(first: 10) { totalCount edges { node { number status total } } } }"}'`,
    personToken: `# The answer's body is the token itself (text/plain).
TOKEN=$(curl -s ${origin}/api/login \\
  -H "Content-Type: application/json" \\
  -d '{"username": "alice", "password": "correct horse battery staple"}')

curl ${origin}/api/me -H "Authorization: Bearer $TOKEN"`,
    personLogin: `mutation SignIn {
  login(input: { username: "alice", password: "correct horse battery staple" }) {
    token
    user { id username role }
  }
}`,
    graphqlPages: `query Orders($after: String) {
  orders(first: 100, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { node { id number status total createdAt } }
  }
}`,
    allPages: `let after = null;
do {
  const res = await fetch('${origin}/graphql', {
    method: 'POST',
    headers: { Authorization: \`Bearer \${process.env.ART_SONG_KEY}\`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: ORDERS, variables: { after } }),
  });
  const { data } = await res.json();
  for (const { node } of data.orders.edges) console.log(node.number, node.status);
  after = data.orders.pageInfo.hasNextPage ? data.orders.pageInfo.endCursor : null;
} while (after);`,
    restCursor: `curl "${origin}/api/products/search?q=birthday&first=50" -H "Authorization: Bearer $ART_SONG_KEY"
# {"items": [{"id": 12, "name": "Birthday Balloons", "price": 4.99, …}, …], "next_cursor": "eyJuIjoi…"}

curl "${origin}/api/products/search?q=birthday&first=50&after=eyJuIjoi…" -H "Authorization: Bearer $ART_SONG_KEY"
# … until "next_cursor" is null`,
    restPages: `curl "${origin}/api/admin/customers?sort=spent&page=2" -H "Authorization: Bearer $ART_SONG_KEY"
# {"customers": […], "total": 1204, "next_page": 3, "next_after": "eyJrIjoi…"}`,
    restError: `HTTP/1.1 400 Bad Request
Content-Type: application/json

{"message": "Choose a category.", "code": "BAD_USER_INPUT", "field": "category_id"}`,
    graphqlError: `{
  "errors": [
    {
      "message": "This API key's scopes do not allow this operation.",
      "path": ["customers"],
      "extensions": { "code": "FORBIDDEN" }
    }
  ],
  "data": null
}`,
    rateHeaders: `HTTP/1.1 200 OK
RateLimit-Limit: 600
RateLimit-Remaining: 583
RateLimit-Reset: 41`,
    rateLimited: `HTTP/1.1 429 Too Many Requests
Retry-After: 12
RateLimit-Limit: 600
RateLimit-Remaining: 0
RateLimit-Reset: 12
Content-Type: application/json

{
  "message": "Too many API requests. Please wait for the time Retry-After gives and try again.",
  "code": "RATE_LIMITED"
}`,
    politeClient: `async function call(url, init) {
  for (;;) {
    const res = await fetch(url, init);
    if (res.status !== 429 && res.status !== 503) return res;
    const wait = Number(res.headers.get('Retry-After') ?? 1);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}`,
    webhookDelivery: `POST /hooks/art-song HTTP/1.1
Content-Type: application/json
ArtSong-Event-Id: 9f0e4c1a-3b2d-4e5f-8a7b-6c5d4e3f2a1b
ArtSong-Signature: t=1798099200,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd

{
  "id": "9f0e4c1a-3b2d-4e5f-8a7b-6c5d4e3f2a1b",
  "type": "order.paid",
  "created_at": "2026-12-24T08:00:00.000Z",
  "data": {
    "order": {
      "id": "0c6f3e2a-…", "status": "paid", "currency": "USD", "total": "12.00",
      "purchaser_email": "ada@example.com", "created_at": "2026-12-24T08:00:00.000Z",
      "lines": [{ "product_id": 12, "name": "Balloon Birthday", "quantity": 1, "unit_price": "4.50", … }],
      …
    }
  }
}`,
  };
}
