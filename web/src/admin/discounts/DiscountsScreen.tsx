import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, H2, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { dateTime, money } from '../orders/order-format';
import { AutomaticDiscountsPanel } from './AutomaticDiscountsPanel';
import { DiscountDialog, type DiscountRow } from './DiscountDialog';
import { DeleteDiscountCodeMutation, DiscountCodesQuery } from './discounts-operations';
import './discounts.css';

export const DELETE_DISCOUNT_QUESTION = 'Are you sure you want to delete this discount code? Orders that used it keep their discount.';

/** Whether a code can be used now: "Active", "Scheduled", "Expired" or "Used up". */
function state(row: DiscountRow, now = new Date()): { label: string; intent: 'success' | 'primary' | 'warning' | 'none' } {
  if (row.startsAt && new Date(row.startsAt) > now) return { label: 'Scheduled', intent: 'primary' };
  if (row.endsAt && new Date(row.endsAt) <= now) return { label: 'Expired', intent: 'none' };
  if (row.maxUses !== null && row.maxUses !== undefined && row.uses >= row.maxUses) return { label: 'Used up', intent: 'warning' };
  return { label: 'Active', intent: 'success' };
}

/** A code's rules in a few words ("Products, $30.00 minimum, once per customer"), or "—". */
function rulesOf(row: DiscountRow): string {
  const parts = [
    row.productIds.length ? `${row.productIds.length} product${row.productIds.length === 1 ? '' : 's'}` : '',
    row.categoryIds.length ? `${row.categoryIds.length} categor${row.categoryIds.length === 1 ? 'y' : 'ies'}` : '',
    row.minSubtotal ? `${money(row.minSubtotal)} minimum` : '',
    row.oncePerCustomer ? 'once per customer' : '',
    row.firstOrderOnly ? 'first order only' : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : '—';
}

/** Discounts: the codes in a table, "New code", and a row's Edit and Delete; below them the automatic discounts. */
export function DiscountsScreen() {
  const { data, error, refetch } = useQuery(DiscountCodesQuery, { fetchPolicy: 'cache-and-network' });
  const [editing, setEditing] = useState<DiscountRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<DiscountRow | null>(null);
  const [deleteCode] = useMutation(DeleteDiscountCodeMutation);

  const remove = async () => {
    const row = deleting;
    setDeleting(null);
    if (!row) return;
    try {
      await deleteCode({ variables: { id: row.id } });
      await refetch();
      void snackbar('Discount code deleted successfully!');
    } catch (err) {
      reportError('deleting discount code', 'Failed to delete discount code', err);
    }
  };

  const rows = data?.discountCodes;
  return (
    <div className="discounts-screen">
      <div className="discounts-toolbar">
        <H2>Discounts</H2>
        <Button intent="primary" icon="add" text="New code" onClick={() => setEditing('new')} />
      </div>
      {error && !rows ? (
        <Callout intent="danger" title="Discount codes could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !rows ? (
        <Spinner className="discounts-state" />
      ) : rows.length === 0 ? (
        <NonIdealState className="discounts-state" icon="tag" title="No discount codes yet" description="Create a code for a promotion: a percentage or an amount off, for a while, a number of times." />
      ) : (
        <div className="discounts-table-wrap">
          <table className="bp6-html-table bp6-html-table-striped discounts-table" aria-label="Discount codes">
            <thead>
              <tr>
                <th>Code</th>
                <th>Discount</th>
                <th>Rules</th>
                <th>Starts</th>
                <th>Ends</th>
                <th className="discounts-number">Uses</th>
                <th>State</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const { label, intent } = state(row);
                return (
                  <tr key={row.id}>
                    <td className="discounts-code">{row.code}</td>
                    <td>{row.percentOff !== null && row.percentOff !== undefined ? `${row.percentOff}% off` : `${money(row.amountOff ?? '0')} off`}</td>
                    <td>{rulesOf(row)}</td>
                    <td>{row.startsAt ? dateTime(row.startsAt) : '—'}</td>
                    <td>{row.endsAt ? dateTime(row.endsAt) : '—'}</td>
                    <td className="discounts-number">
                      {row.uses}
                      {row.maxUses !== null && row.maxUses !== undefined ? ` / ${row.maxUses}` : ''}
                    </td>
                    <td>
                      <Tag minimal intent={intent}>
                        {label}
                      </Tag>
                    </td>
                    <td className="discounts-actions">
                      <Button variant="minimal" icon="edit" aria-label={`Edit ${row.code}`} title="Edit" onClick={() => setEditing(row)} />
                      <Button variant="minimal" icon="trash" intent="danger" aria-label={`Delete ${row.code}`} title="Delete" onClick={() => setDeleting(row)} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <DiscountDialog
          row={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refetch();
          }}
        />
      )}
      <AutomaticDiscountsPanel />
      <ConfirmAlert isOpen={deleting !== null} message={DELETE_DISCOUNT_QUESTION} onConfirm={() => void remove()} onCancel={() => setDeleting(null)} />
    </div>
  );
}
