import { useRef, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Alert, Button } from '@blueprintjs/core';
import { graphql } from '../../apollo/generated';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { money } from './order-format';
import { AdminOrderQuery } from './orders-operations';

export const RefundOrderMutation = graphql(`
  mutation RefundOrder($id: ID!) {
    refundOrder(id: $id) {
      id
      status
      refundedAt
    }
  }
`);

/** "Refund" for a paid or delivered order, after a confirmation; the shop refunds it once, however often it is clicked. */
export function RefundButton({ order }: { order: { id: string; status: string; total: string; purchaserEmail: string } }) {
  const [asking, setAsking] = useState(false);
  const busy = useRef(false);
  const [refundOrder, { loading }] = useMutation(RefundOrderMutation, { refetchQueries: [{ query: AdminOrderQuery, variables: { id: order.id } }], awaitRefetchQueries: true });
  if (order.status !== 'PAID' && order.status !== 'DELIVERED') return null;

  const confirm = async () => {
    setAsking(false);
    if (busy.current) return;
    busy.current = true;
    try {
      await refundOrder({ variables: { id: order.id } });
      void snackbar(`Order refunded: ${money(order.total)} back to ${order.purchaserEmail}`);
    } catch (error) {
      reportError('refunding order', 'Failed to refund order', error);
    } finally {
      busy.current = false;
    }
  };

  return (
    <>
      <Button intent="danger" variant="outlined" icon="undo" text="Refund" loading={loading} disabled={loading} onClick={() => setAsking(true)} />
      <Alert
        isOpen={asking}
        intent="danger"
        icon="undo"
        confirmButtonText="Refund"
        cancelButtonText="Cancel"
        canEscapeKeyCancel
        onConfirm={() => void confirm()}
        onCancel={() => setAsking(false)}
      >
        <p>
          Refund {money(order.total)} to {order.purchaserEmail}?
        </p>
        <p>Cards not sent yet will not be sent, and sent cards will show “This card was withdrawn”. This cannot be undone.</p>
      </Alert>
    </>
  );
}
