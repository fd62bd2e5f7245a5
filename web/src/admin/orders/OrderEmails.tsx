import { useMutation } from '@apollo/client/react';
import { Button, Tag, type Intent } from '@blueprintjs/core';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { dateTime } from './order-format';
import { AdminOrderQuery, ResendReceiptMutation, RetryEmailMutation } from './orders-operations';

export interface OrderEmailRow {
  id: number;
  kind: string;
  status: string;
  attempts: number;
  lastError?: string | null;
  dueAt: string;
  sentAt?: string | null;
}

const KIND_LABEL: Record<string, string> = { CARD: 'Card', CARD_RESEND: 'Card (resent)', RECEIPT: 'Receipt', RECEIPT_RESEND: 'Receipt (resent)', OPENED: 'Card-opened notice', THANK_YOU: 'Thank-you', REMINDER: 'Reminder' };
const STATUS_INTENT: Record<string, Intent> = { SENT: 'success', FAILED: 'danger', QUEUED: 'none', SENDING: 'primary', WITHHELD: 'warning' };

/** The e-mails of an order in 'Order Details': each with its state and, when it failed, why; failed ones can be retried. */
export function OrderEmails({ orderId, emails }: { orderId: string; emails: OrderEmailRow[] }) {
  const refetch = { refetchQueries: [{ query: AdminOrderQuery, variables: { id: orderId } }] };
  const [retry] = useMutation(RetryEmailMutation, refetch);
  const [resendReceipt] = useMutation(ResendReceiptMutation, refetch);

  const act = async (work: () => Promise<unknown>, done: string, what: string) => {
    try {
      await work();
      void snackbar(done);
    } catch (failure) {
      reportError(what, `Failed: ${what}`, failure);
    }
  };

  return (
    <>
      <h3 className="order-details-heading">
        E-mails
        <Button size="small" variant="minimal" icon="envelope" text="Resend receipt" onClick={() => void act(() => resendReceipt({ variables: { orderId } }), 'Receipt queued', 'resending the receipt')} />
      </h3>
      <ul className="order-details-emails">
        {emails.map((email) => (
          <li key={email.id}>
            <span>{KIND_LABEL[email.kind] ?? email.kind}</span>
            <Tag minimal intent={STATUS_INTENT[email.status]}>
              {email.status.toLowerCase()}
            </Tag>
            <span className="muted">
              {email.status === 'SENT' && email.sentAt
                ? `sent ${dateTime(email.sentAt)}`
                : email.status === 'QUEUED' && email.attempts > 0
                  ? `${email.attempts} failed ${email.attempts === 1 ? 'try' : 'tries'}, next ${dateTime(email.dueAt)}`
                  : email.status === 'QUEUED'
                    ? `due ${dateTime(email.dueAt)}`
                    : email.status === 'FAILED'
                      ? `gave up after ${email.attempts} tries`
                      : ''}
            </span>
            {email.lastError && email.status !== 'SENT' && <span className="order-email-error">{email.lastError}</span>}
            {email.status === 'FAILED' && <Button size="small" variant="outlined" icon="refresh" text="Retry" onClick={() => void act(() => retry({ variables: { id: email.id } }), 'E-mail queued again', 'retrying the e-mail')} />}
          </li>
        ))}
      </ul>
    </>
  );
}
