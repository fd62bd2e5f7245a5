import { useState } from 'react';
import { Link } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, AnchorButton, Button, Callout, Card, Spinner, Tag, type Intent } from '@blueprintjs/core';
import { MAX_OWNER_RESENDS, orderNumber } from '@rules';
import { useErrorText } from '../../i18n/input-messages';
import type { MyOrdersQuery as MyOrdersData } from '../../apollo/generated/graphql';
import { snackbar } from '../../common/toaster';
import { formatPrice, paidWithGiftCard } from '../common/price';
import { MyOrdersQuery, ResendMyCardMutation } from './account-operations';
import { cardActions, cardState, cardStateLabel, longDate, longDateTime, withdrawnOrder, type CardState } from './card-state';
import { AccountMembership } from './AccountMembership';
import { ChangeDateDialog, type ChangingCard } from './ChangeDateDialog';
import { ConfirmEmailReminder } from '../account-settings/ConfirmEmailReminder';
import { GroupCardSection } from '../group-card/GroupCardSection';
import '../common/storefront.css';
import './account.css';
import { EmptyState } from '../../common/EmptyState';

const PAGE = 10;
type OrderNode = MyOrdersData['myOrders']['edges'][number]['node'];
type ItemNode = OrderNode['items'][number];

const STATE_INTENT: Record<CardState['kind'], Intent> = { scheduled: 'primary', sent: 'none', opened: 'success', withdrawn: 'none', 'not-sent': 'none', 'not-delivered': 'warning' };

/** /account, "My orders": the signed-in shopper's orders, newest first, with what can be done with each card. */
export default function AccountPage() {
  const intl = useIntl();
  const errorText = useErrorText();
  const { data, loading, error, fetchMore } = useQuery(MyOrdersQuery, { variables: { first: PAGE }, fetchPolicy: 'cache-and-network' });
  const [changing, setChanging] = useState<ChangingCard | null>(null);
  const [resending, setResending] = useState<ItemNode | null>(null);
  const [resend] = useMutation(ResendMyCardMutation);
  const orders = data?.myOrders;

  const confirmResend = async () => {
    const card = resending;
    setResending(null);
    if (!card) return;
    try {
      await resend({ variables: { itemId: card.id } });
      void snackbar(intl.formatMessage({ id: 'account.resend.done', defaultMessage: 'The card is on its way to {name} again' }, { name: card.recipientName }));
    } catch (failure) {
      void snackbar(errorText(failure, intl.formatMessage({ id: 'account.resend.failed', defaultMessage: 'The card could not be sent again.' })), 'danger');
    }
  };

  return (
    <div className="store-page account-page">
      <h1>
        <FormattedMessage id="account.title" defaultMessage="My orders" />
      </h1>
      <ConfirmEmailReminder />
      <AccountMembership />
      {error && !orders ? (
        <Callout intent="danger" title={intl.formatMessage({ id: 'account.loadFailed', defaultMessage: 'Your orders could not be loaded' })}>
          {errorText(error, intl.formatMessage({ id: 'checkout.failure.tryAgain', defaultMessage: 'Please try again.' }))}
        </Callout>
      ) : loading && !orders ? (
        <Spinner className="store-state" />
      ) : !orders?.edges.length ? (
        <EmptyState
          className="store-state"
          icon="envelope"
          title={intl.formatMessage({ id: 'account.empty.title', defaultMessage: 'No orders yet' })}
          description={intl.formatMessage({ id: 'account.empty.description', defaultMessage: 'Cards you buy while signed in appear here.' })}
          action={
            <Link to="/shop">
              <FormattedMessage id="cart.empty.browse" defaultMessage="Browse the shop" />
            </Link>
          }
        />
      ) : (
        <>
          <ul className="account-orders" aria-label={intl.formatMessage({ id: 'account.orders', defaultMessage: 'Orders' })}>
            {orders.edges.map(({ node: order }) => {
              const withdrawn = withdrawnOrder(order.status);
              const giftCard = paidWithGiftCard(order);
              return (
                <li key={order.id}>
                  <Card className="account-order">
                    <header className="account-order-head">
                      <div>
                        <h2>
                          <FormattedMessage id="account.order.title" defaultMessage="Order {number}" values={{ number: orderNumber(order.id) }} />
                          {withdrawn && (
                            <Tag minimal intent={order.status === 'REFUNDED' ? 'danger' : 'warning'} className="account-order-state">
                              {withdrawn.label}
                            </Tag>
                          )}
                        </h2>
                        <span className="muted">
                          {longDateTime(order.createdAt)} · {formatPrice(order.total)}
                        </span>
                        {giftCard && (
                          <span className="muted account-order-split">
                            <FormattedMessage
                              id="account.order.split"
                              defaultMessage="{giftCard} −{giftCardAmount} · Paid by card {cardAmount}"
                              values={{ giftCard: giftCard.label, giftCardAmount: formatPrice(giftCard.giftCard), cardAmount: formatPrice(giftCard.card) }}
                            />
                          </span>
                        )}
                      </div>
                      <Link to={`/order-confirmation/${order.id}`}>
                        <FormattedMessage id="account.order.details" defaultMessage="Order details" />
                      </Link>
                    </header>
                    {withdrawn && <p className="account-order-note muted">{withdrawn.note}</p>}
                    <ul className="account-items">
                      {order.items.map((item) => (
                        <AccountItem key={item.id} item={item} orderId={order.id} orderStatus={order.status} onChangeDate={() => setChanging({ id: item.id, recipientName: item.recipientName ?? '', deliverAt: item.deliverAt ?? null, signatures: item.groupCard?.signatureCount ?? null })} onResend={() => setResending(item)} />
                      ))}
                    </ul>
                  </Card>
                </li>
              );
            })}
          </ul>
          {orders.pageInfo.hasNextPage && (
            <Button className="account-more" text={intl.formatMessage({ id: 'account.more', defaultMessage: 'Show older orders' })} loading={loading} onClick={() => void fetchMore({ variables: { after: orders.pageInfo.endCursor } })} />
          )}
        </>
      )}
      <ChangeDateDialog card={changing} onClose={() => setChanging(null)} />
      <Alert
        isOpen={resending !== null}
        icon="envelope"
        intent="primary"
        confirmButtonText={intl.formatMessage({ id: 'account.resend', defaultMessage: 'Resend' })}
        cancelButtonText={intl.formatMessage({ id: 'account.cancel', defaultMessage: 'Cancel' })}
        onConfirm={() => void confirmResend()}
        onCancel={() => setResending(null)}
        canEscapeKeyCancel
      >
        <p>
          <FormattedMessage id="account.resend.confirm" defaultMessage="Send the card to {name} ({email}) again?" values={{ name: resending?.recipientName, email: resending?.recipientEmail }} />
        </p>
      </Alert>
    </div>
  );
}

/** One line of an order: a product, or a card with its recipient, day, state, actions and thank-yous. */
function AccountItem({ item, orderId, orderStatus, onChangeDate, onResend }: { item: ItemNode; orderId: string; orderStatus: OrderNode['status']; onChangeDate: () => void; onResend: () => void }) {
  const intl = useIntl();
  if (!item.ecardPath) {
    return (
      <li className="account-item">
        <div className="account-item-line">
          <span>
            {item.quantity > 1 ? `${intl.formatMessage({ id: 'checkout.summary.quantity', defaultMessage: '{count} ×' }, { count: item.quantity })} ` : ''}
            {item.name}
          </span>
          <span>{formatPrice(item.lineTotal)}</span>
        </div>
      </li>
    );
  }
  const state = cardState(item, orderStatus);
  const actions = cardActions(state, item.resendsLeft);
  const day = item.deliveredAt ?? item.deliverAt;
  return (
    <li className="account-item account-card" aria-label={intl.formatMessage({ id: 'account.card.label', defaultMessage: 'Card for {name}' }, { name: item.recipientName })}>
      <div className="account-item-line">
        <span>{item.name}</span>
        <span>{formatPrice(item.lineTotal)}</span>
      </div>
      <div className="account-card-facts">
        <span>
          <FormattedMessage id="account.card.to" defaultMessage="To <b>{name}</b>" values={{ name: item.recipientName, b: (chunks) => <strong>{chunks}</strong> }} />
        </span>
        {day && (
          <span className="muted">
            {item.deliveredAt
              ? intl.formatMessage({ id: 'account.card.delivered', defaultMessage: 'Delivered {date}' }, { date: longDate(day) })
              : state.kind === 'not-sent' || state.kind === 'not-delivered'
                ? intl.formatMessage({ id: 'account.card.wasDue', defaultMessage: 'Was due {date}' }, { date: longDate(day) })
                : intl.formatMessage({ id: 'account.card.delivery', defaultMessage: 'Delivery {date}' }, { date: longDateTime(day) })}
          </span>
        )}
        <Tag minimal round intent={STATE_INTENT[state.kind]} className="account-card-state">
          {cardStateLabel(state)}
        </Tag>
      </div>
      <div className="account-card-actions">
        <AnchorButton size="small" variant="minimal" icon="eye-open" href={`${item.ecardPath}?preview=1`} target="_blank" rel="noopener noreferrer" text={intl.formatMessage({ id: 'account.card.view', defaultMessage: 'View the card' })} />
        {actions.changeDate && <Button size="small" variant="outlined" icon="calendar" text={intl.formatMessage({ id: 'account.changeDate', defaultMessage: 'Change date' })} onClick={onChangeDate} />}
        {actions.resend && <Button size="small" variant="outlined" icon="envelope" text={intl.formatMessage({ id: 'account.resend', defaultMessage: 'Resend' })} onClick={onResend} />}
        {(state.kind === 'sent' || state.kind === 'opened') && !actions.resend && <span className="muted account-resends-used">
            <FormattedMessage id="account.card.resendsUsed" defaultMessage="Sent again {count, plural, one {# time} other {# times}}" values={{ count: MAX_OWNER_RESENDS }} />
          </span>}
      </div>
      {item.groupCard && <GroupCardSection orderId={orderId} itemId={item.id} recipientName={item.recipientName ?? ''} groupCard={item.groupCard} />}
      {item.replies.length > 0 && (
        <ul className="account-replies" aria-label={intl.formatMessage({ id: 'account.card.replies', defaultMessage: 'Thank-you replies' })}>
          {item.replies.map((reply) => (
            <li key={reply.id}>
              <blockquote>{reply.message}</blockquote>
              <span className="muted">
                — {reply.name}, {longDateTime(reply.createdAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
