import { useEffect, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Card, H2, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { CursorPager, useCursorPages } from '../../common/CursorPager';
import { useUrlParams } from '../../common/url-params';
import { useDebounced } from '../../storefront/common/use-debounced';
import { money } from '../orders/order-format';
import { AdjustGiftCardDialog } from './AdjustGiftCardDialog';
import { GiftCardLedgerDialog } from './GiftCardLedgerDialog';
import { GiftCardsTable } from './GiftCardsTable';
import { IssueGiftCardDialog } from './IssueGiftCardDialog';
import { VoidGiftCardAlert } from './VoidGiftCardAlert';
import { GiftCardsQuery } from './gift-cards-operations';
import './gift-cards.css';

const PAGE = 25;
const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : null);

/**
 * Gift cards (contract section 18): what the active cards still hold (the shop's liability), the
 * cards searched by the code's last four characters or the recipient's address, "Issue gift card",
 * and a row's ledger, Adjust and Void. The search and every dialog live in the address (`?issue=1`,
 * `?giftCard=12`, `?adjust=12`, `?void=12`) so they survive a reload; an issued code never does.
 */
export function GiftCardsScreen() {
  const [params, changeParams] = useUrlParams();
  const [text, setText] = useState(params.get('search') ?? '');
  const search = useDebounced(text.trim(), 250);
  // The list pages by offset: the pager's "cursor" is where the next page starts.
  const pages = useCursorPages(PAGE);
  const offset = Number(pages.after ?? 0);
  const openId = idParam(params.get('giftCard'));
  const adjustId = idParam(params.get('adjust'));
  const voidId = idParam(params.get('void'));

  useEffect(() => {
    pages.reset();
    changeParams({ search }, { replace: true });
  }, [search, changeParams]);

  const { data, error, loading, refetch } = useQuery(GiftCardsQuery, { variables: { search: search || null, offset, first: PAGE }, fetchPolicy: 'cache-and-network' });
  const page = data?.giftCards;

  return (
    <div className="gift-cards-screen">
      <div className="gift-cards-toolbar">
        <H2>Gift cards</H2>
        <InputGroup
          className="gift-cards-search"
          type="search"
          leftIcon="search"
          placeholder="Last 4 characters or e-mail"
          aria-label="Search gift cards"
          value={text}
          onValueChange={setText}
          rightElement={loading ? <Spinner size={16} className="gift-cards-search-spinner" /> : undefined}
        />
        <Button intent="primary" icon="add" text="Issue gift card" onClick={() => changeParams({ issue: '1' })} />
      </div>
      {page && (
        <Card className="gift-cards-outstanding" aria-label="Outstanding balance">
          <span className="gift-cards-outstanding-label">Outstanding balance</span>
          <strong className="gift-cards-outstanding-amount">{money(page.outstanding)}</strong>
          <span className="muted">What every active gift card still holds: owed to their holders until they spend it.</span>
        </Card>
      )}
      {error && !page ? (
        <Callout intent="danger" title="Gift cards could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !page ? (
        <Spinner className="gift-cards-state" />
      ) : page.items.length === 0 ? (
        <NonIdealState
          className="gift-cards-state"
          icon="credit-card"
          title={search ? `No gift cards match “${search}”` : 'No gift cards yet'}
          description={search ? undefined : 'Cards shoppers buy appear here, and so do the ones you issue: a goodwill gesture, a prize, a refund as credit.'}
        />
      ) : (
        <>
          <GiftCardsTable cards={page.items} onOpen={(id) => changeParams({ giftCard: String(id) })} onAdjust={(id) => changeParams({ adjust: String(id) })} onVoid={(id) => changeParams({ void: String(id) })} />
          <CursorPager pages={pages} shown={page.items.length} page={{ totalCount: page.totalCount, pageInfo: { hasNextPage: offset + page.items.length < page.totalCount, endCursor: String(offset + page.items.length) } }} />
        </>
      )}
      <GiftCardLedgerDialog id={openId} onClose={() => changeParams({ giftCard: null })} onAdjust={() => changeParams({ adjust: String(openId) })} onVoid={() => changeParams({ void: String(openId) })} />
      {params.get('issue') === '1' && <IssueGiftCardDialog onClose={() => changeParams({ issue: null })} />}
      {adjustId !== null && <AdjustGiftCardDialog key={adjustId} id={adjustId} onClose={() => changeParams({ adjust: null })} />}
      {voidId !== null && <VoidGiftCardAlert key={voidId} id={voidId} onClose={() => changeParams({ void: null })} />}
    </div>
  );
}
