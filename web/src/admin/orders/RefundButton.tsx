import { useRef, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, TextArea } from '@blueprintjs/core';
import { refundAmount } from '@rules';
import { graphql } from '../../apollo/generated';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { money } from './order-format';
import { toggled } from '../../common/toggled';
import { AdminOrderQuery } from './orders-operations';

export const RefundOrderMutation = graphql(`
  mutation RefundOrder($id: ID!, $itemIds: [Int!], $reason: String, $notify: Boolean) {
    refundOrder(id: $id, itemIds: $itemIds, reason: $reason, notify: $notify) {
      id
      status
      refundedAt
      refundedAmount
      refundReason
    }
  }
`);

interface RefundableOrder {
  id: string;
  status: string;
  total: string;
  refundedAmount: string;
  /** What a gift card paid: a refund goes back onto it first (what it paid and was not given back yet), the rest through the provider. */
  giftCardAmount: string;
  giftCardLast4?: string | null;
  purchaserEmail: string;
  items: { id: number; name: string; price: string; quantity: number; recipientName?: string | null; refundedAt?: string | null }[];
}

const REFUNDABLE = ['PAID', 'DELIVERED', 'PARTIALLY_REFUNDED'];

/**
 * "Refund" in Order Details: a dialog that chooses the cards (lines) to refund, none at first, and
 * says the amount before anything happens, with the reason (kept with the order) and "Tell the
 * customer" (a refund e-mail); the shop refunds it once, however often it is clicked.
 */
export function RefundButton({ order }: { order: RefundableOrder }) {
  const standing = order.items.filter((item) => !item.refundedAt);
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [reason, setReason] = useState('');
  const [notify, setNotify] = useState(true);
  const busy = useRef(false);
  const [refundOrder, { loading }] = useMutation(RefundOrderMutation, { refetchQueries: [{ query: AdminOrderQuery, variables: { id: order.id } }], awaitRefetchQueries: true });
  if (!REFUNDABLE.includes(order.status) || standing.length === 0) return null;

  const all = chosen.size === standing.length;
  const amount = refundAmount(order, order.items, chosen);
  const toGiftCard = Math.min(Math.round(Number(amount) * 100), Math.max(Math.round((Number(order.giftCardAmount) - Number(order.refundedAmount)) * 100), 0));
  const toProvider = Math.round(Number(amount) * 100) - toGiftCard;
  const where = [
    toGiftCard > 0 ? `${money((toGiftCard / 100).toFixed(2))} goes back onto gift card ····${order.giftCardLast4 ?? ''}` : '',
    toProvider > 0 || toGiftCard === 0 ? `${money((toProvider / 100).toFixed(2))} goes back through the payment provider` : '',
  ].filter(Boolean);
  const toggle = (id: number) => setChosen((current) => toggled(current, id));

  const confirm = async () => {
    if (busy.current || chosen.size === 0) return;
    busy.current = true;
    try {
      await refundOrder({ variables: { id: order.id, itemIds: all ? null : [...chosen], reason: reason.trim() || null, notify } });
      setOpen(false);
      void snackbar(`Refunded ${money(amount)} to ${order.purchaserEmail}`);
    } catch (error) {
      reportError('refunding order', 'Failed to refund order', error);
    } finally {
      busy.current = false;
    }
  };

  return (
    <>
      <Button
        intent="danger"
        variant="outlined"
        icon="undo"
        text="Refund"
        onClick={() => {
          setChosen(new Set());
          setReason('');
          setNotify(true);
          setOpen(true);
        }}
      />
      <Dialog isOpen={open} onClose={() => setOpen(false)} title="Refund" icon="undo" className="refund-dialog">
        <DialogBody>
          <p>Choose what to refund to {order.purchaserEmail}:</p>
          <div className="refund-lines" role="group" aria-label="Items to refund">
            {standing.map((item) => (
              <Checkbox key={item.id} checked={chosen.has(item.id)} onChange={() => toggle(item.id)}>
                <span className="refund-line">
                  <span>
                    {item.name}
                    {item.quantity > 1 ? ` × ${item.quantity}` : ''}
                    {item.recipientName ? ` to ${item.recipientName}` : ''}
                  </span>
                  <span className="orders-number">{money((Number(item.price) * item.quantity).toFixed(2))}</span>
                </span>
              </Checkbox>
            ))}
          </div>
          <FormGroup label="Reason" labelFor="refund-reason" labelInfo="(kept with the order; not sent)">
            <TextArea id="refund-reason" fill rows={2} maxLength={500} value={reason} onChange={(event) => setReason(event.currentTarget.value)} />
          </FormGroup>
          <Checkbox checked={notify} onChange={() => setNotify((was) => !was)} label={`Tell the customer (an e-mail to ${order.purchaserEmail})`} />
          <Callout intent="warning" icon="info-sign" className="refund-summary">
            {chosen.size === 0 ? 'Choose at least one item.' : `${where.join(', and ')}${all ? ': the whole order.' : '.'}`} Refunded cards not sent yet are not sent, and sent ones show “This card was withdrawn”. This cannot be undone.
          </Callout>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={() => setOpen(false)} />
              <Button intent="danger" icon="undo" text={chosen.size ? `Refund ${money(amount)}` : 'Refund'} disabled={chosen.size === 0 || loading} loading={loading} onClick={() => void confirm()} />
            </>
          }
        />
      </Dialog>
    </>
  );
}
