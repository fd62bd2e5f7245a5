import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, H2, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { orderNumber } from '@rules';
import { reportError } from '../../common/report-error';
import { SortableHeader, sortRows, type SortState } from '../../common/SortableHeader';
import { snackbar } from '../../common/toaster';
import { dateTime } from '../orders/order-format';
import { EmailProblemsQuery, RetryEmailsMutation } from './email-operations';
import '../orders/orders.css';
import './email.css';

type Column = 'recipient' | 'kind' | 'order' | 'attempts' | 'due';

const KIND_LABEL: Record<string, string> = { card: 'Card', 'card-resend': 'Card (resent)', receipt: 'Receipt', 'receipt-resend': 'Receipt (resent)', opened: 'Card opened', 'thank-you': 'Thank-you', reminder: 'Reminder' };

/**
 * E-mail: the e-mails that failed (given up after days of retrying) or have waited long past their
 * time, with who they are for, their kind, order, attempts and the reason; "Retry" for one and
 * "Retry all". A row's order opens in Orders.
 */
export function EmailScreen() {
  const [, setParams] = useSearchParams();
  const { data, error, refetch } = useQuery(EmailProblemsQuery, { fetchPolicy: 'cache-and-network' });
  const [retry, { loading }] = useMutation(RetryEmailsMutation, { refetchQueries: [{ query: EmailProblemsQuery }], awaitRefetchQueries: true });
  const [sort, setSort] = useState<SortState<Column>>({ key: 'due', descending: false });

  const run = async (ids: number[] | null) => {
    try {
      const { data: result } = await retry({ variables: { ids } });
      const count = result?.retryEmails ?? 0;
      void snackbar(count ? `${count} e-mail${count === 1 ? '' : 's'} back in the queue` : 'Nothing to retry', count ? 'success' : 'warning');
    } catch (err) {
      reportError('retrying e-mail', 'Failed to retry', err);
    }
  };

  const problems = data?.emailProblems;
  const rows = problems
    ? sortRows(problems.emails, sort, (e, key) => (key === 'recipient' ? (e.recipient ?? '') : key === 'kind' ? e.kind : key === 'order' ? (e.orderId ?? '') : key === 'attempts' ? e.attempts : e.dueAt))
    : [];
  const header = (label: string, column: Column, numeric = false) => <SortableHeader label={label} column={column} sort={sort} onSort={setSort} numeric={numeric} firstDescending={column === 'attempts'} />;

  return (
    <div className="email-screen">
      <div className="email-toolbar">
        <H2>E-mail</H2>
        <Button intent="primary" icon="refresh" text="Retry all" disabled={!problems?.emails.length || loading} loading={loading} onClick={() => void run(null)} />
      </div>
      {error && !problems ? (
        <Callout intent="danger" title="The e-mail could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !problems ? (
        <Spinner className="email-state" />
      ) : problems.emails.length === 0 ? (
        <NonIdealState className="email-state" icon="tick-circle" title="All e-mail is going out" description={`Failed e-mails, and e-mails waiting more than ${problems.waitingAfterMinutes} minutes past their time, appear here.`} />
      ) : (
        <>
          <p className="muted email-intro">
            {problems.totalCount.toLocaleString()} e-mail{problems.totalCount === 1 ? '' : 's'} failed or waiting more than {problems.waitingAfterMinutes} minutes past {problems.totalCount === 1 ? 'its' : 'their'} time. A retry sends again at once, with a fresh retry period.
          </p>
          <div className="email-table-wrap">
            <table className="bp6-html-table bp6-html-table-striped email-table" aria-label="Failed and waiting e-mail">
              <thead>
                <tr>
                  {header('Recipient', 'recipient')}
                  {header('Kind', 'kind')}
                  {header('Order', 'order')}
                  {header('Attempts', 'attempts', true)}
                  {header('Due', 'due')}
                  <th>Reason</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {rows.map((email) => (
                  <tr key={email.id}>
                    <td className="email-recipient">{email.recipient ?? '—'}</td>
                    <td>
                      {KIND_LABEL[email.kind] ?? email.kind}{' '}
                      <Tag minimal intent={email.status === 'failed' ? 'danger' : 'warning'}>
                        {email.status === 'failed' ? 'failed' : 'waiting'}
                      </Tag>
                    </td>
                    <td>
                      {email.orderId ? (
                        <Button variant="minimal" size="small" className="email-order" text={orderNumber(email.orderId)} title="Open the order" onClick={() => setParams({ view: 'orders', order: email.orderId! })} />
                      ) : (
                        '—'
                      )}
                    </td>
                    <td className="orders-number">{email.attempts}</td>
                    <td className="email-due">{dateTime(email.dueAt)}</td>
                    <td className="email-reason">{email.lastError ?? <span className="muted">not tried yet</span>}</td>
                    <td className="email-actions">
                      <Button size="small" variant="outlined" icon="refresh" text="Retry" aria-label={`Retry the e-mail to ${email.recipient ?? ''}`} disabled={loading} onClick={() => void run([email.id])} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
