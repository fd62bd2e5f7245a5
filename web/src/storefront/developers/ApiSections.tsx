import { Callout, HTMLTable } from '@blueprintjs/core';
import { API_SCOPE_DOCS } from '@rules';
import { CodeSample } from './CodeSample';
import type { codeSamples } from './developers-content';

export type Samples = ReturnType<typeof codeSamples>;

/** A REST route as the docs write it: `GET /api/products/{id}` for Express's `:id`. */
const restRoute = (route: string) => route.replace(/:(\w+)/g, '{$1}');

export function AuthenticationSection({ samples }: { samples: Samples }) {
  return (
    <section id="authentication" className="developers-section" aria-labelledby="authentication-title">
      <h2 id="authentication-title">Authentication</h2>
      <p>
        Every request names its caller in one header, <code>Authorization: Bearer …</code>, on REST and GraphQL alike. A request without one is anonymous: it may read what any visitor of the shop reads.
        There are two kinds of credentials.
      </p>

      <h3>API keys, for integrations</h3>
      <ul>
        <li>
          An admin creates a key in the console’s <strong>API keys</strong> view (<code>/admindash?view=api-keys</code>), with a name that says who uses it and the scopes it needs. The key,{' '}
          <code>ask_</code> and 32 letters and digits, is shown <strong>once</strong>: the shop keeps only a digest of it and its last four characters. Copy it then, into your integration’s secrets.
        </li>
        <li>
          A key is not a person. It may call exactly the operations its <a href="#scopes">scopes</a> allow and is refused everything else with <code>403 FORBIDDEN</code>, public operations included. An
          unknown or revoked key is refused with <code>401 UNAUTHENTICATED</code>, whatever it calls; a revocation holds in every process of the shop from the moment it is made.
        </li>
        <li>What a key changes is recorded in the shop’s audit log under the key’s name, and the console shows when each key was last used.</li>
      </ul>
      <CodeSample title="REST with an API key" language="sh" code={samples.keyRest} />
      <CodeSample title="GraphQL with an API key" language="sh" code={samples.keyGraphql} />

      <h3>A person’s token</h3>
      <p>
        A person signs in with <code>POST /api/login</code> (<code>{'{username, password}'}</code>; the answer’s body is the token) or the GraphQL mutation <code>login</code>, which answers the token
        and the user. The token is a signed JWT that acts as that person, with their role, for 8 hours unless the shop set another lifetime. <code>POST /api/logout</code> (or <code>logout</code>)
        ends it, and a new password ends every earlier one. Use it for a script a person runs; give an integration a key.
      </p>
      <CodeSample title="Sign in over REST" language="sh" code={samples.personToken} />
      <CodeSample title="Sign in over GraphQL" language="graphql" code={samples.personLogin} />
      <Callout intent="warning" icon="key" className="developers-callout">
        <strong>Keep keys on servers.</strong> Anyone who holds a key can do what its scopes allow until an admin revokes it. Never put one in a web page or an app you hand out; if one leaks, revoke it in the console and create another.
      </Callout>
    </section>
  );
}

export function ScopesSection() {
  return (
    <section id="scopes" className="developers-section" aria-labelledby="scopes-title">
      <h2 id="scopes-title">Scopes</h2>
      <p>
        A key is given one or more scopes when it is created; they cannot be changed later (create another key instead). Each scope allows the operations listed beside it, over REST and GraphQL. A key
        holding several scopes may call what any of them allows.
      </p>
      <div className="developers-table-wrap">
        <HTMLTable compact className="developers-table developers-scopes">
          <caption className="visually-hidden">What each scope allows</caption>
          <thead>
            <tr>
              <th scope="col">Scope</th>
              <th scope="col">What it allows</th>
            </tr>
          </thead>
          <tbody>
            {API_SCOPE_DOCS.map((doc) => (
              <tr key={doc.scope}>
                <th scope="row">
                  <code>{doc.scope}</code>
                </th>
                <td>
                  <p className="developers-scope-help">
                    <strong>{doc.label}.</strong> {doc.help}
                  </p>
                  <p className="developers-operations">
                    <span className="developers-operations-kind">REST</span>
                    {doc.rest.map((route) => (
                      <code key={route}>{restRoute(route)}</code>
                    ))}
                  </p>
                  <p className="developers-operations">
                    <span className="developers-operations-kind">GraphQL</span>
                    {doc.graphql.map((field) => (
                      <code key={field}>{field}</code>
                    ))}
                  </p>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      <p>
        Operations that name no scope refuse every key: a person’s own account, the console’s other views (staff, settings, the sales report, the keys themselves), and even public ones such as{' '}
        <code>settings</code>. The list above is the one the shop checks keys against.
      </p>
    </section>
  );
}

export function PaginationSection({ samples }: { samples: Samples }) {
  return (
    <section id="pagination" className="developers-section" aria-labelledby="pagination-title">
      <h2 id="pagination-title">Pagination</h2>
      <p>
        Lists that grow are read a page at a time, by <em>cursor</em>: each page ends with an opaque cursor that names where it stopped, and the next page is asked for after it. A page deep in a list
        is as fast as the first. Keep cursors as they are given; one that is not the list’s own is refused with <code>400 BAD_USER_INPUT</code> on <code>after</code>.
      </p>

      <h3>GraphQL: connections</h3>
      <p>
        A list field takes <code>first</code> (the page size: 1 to 100, 50 unless the field says otherwise; <code>orders</code> takes up to 1,000) and <code>after</code> (the previous page’s{' '}
        <code>pageInfo.endCursor</code>). It answers <code>edges {'{ cursor node }'}</code>, <code>pageInfo {'{ hasNextPage endCursor }'}</code> and <code>totalCount</code>, the size of the whole
        list. <code>orders</code> counts up to 10,000: a <code>totalCount</code> of 10,001 means more than 10,000.
      </p>
      <CodeSample title="A page of orders" language="graphql" code={samples.graphqlPages} />
      <CodeSample title="Every page, in Node" language="js" code={samples.allPages} />

      <h3>REST</h3>
      <p>
        The long REST lists page the same way. <code>GET /api/products/search</code> and <code>GET /api/admin/products</code> take <code>first</code> and <code>after</code> and answer{' '}
        <code>items</code> with <code>next_cursor</code> (null on the last page). <code>GET /api/admin/customers</code> and <code>GET /api/admin/audit</code> take a page number,{' '}
        <code>page</code>, from 1 (50 rows a page), and answer <code>total</code>, <code>next_page</code> and <code>next_after</code>; <code>after=</code> the <code>next_after</code> of one answer
        reads the next page by cursor, which stays fast however far in it is. <code>GET /api/admin/orders</code> answers every order that matches its search at once: use the GraphQL{' '}
        <code>orders</code> to page through many.
      </p>
      <CodeSample title="A cursor-paged REST list" language="sh" code={samples.restCursor} />
      <CodeSample title="A numbered REST list" language="sh" code={samples.restPages} />
    </section>
  );
}
