import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, H3, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { useUrlParams } from '../../common/url-params';
import { dateTime, money } from '../orders/order-format';
import { AutomaticDiscountDialog } from './AutomaticDiscountDialog';
import { AutomaticDiscountsQuery, DeleteAutomaticDiscountMutation } from './discounts-operations';

export const DELETE_AUTOMATIC_QUESTION = 'Are you sure you want to delete this automatic discount? Orders it applied to keep their discount.';

interface AutomaticRow {
  id: number;
  name: string;
  minCards?: number | null;
  percentOff?: number | null;
  minSubtotal?: string | null;
  amountOff?: string | null;
  startsAt?: string | null;
  endsAt?: string | null;
}

/** "3 or more cards: 15% off the cards" or "Orders from $20.00: $3.00 off". */
const termsOf = (row: AutomaticRow) => (row.minCards !== null && row.minCards !== undefined ? `${row.minCards} or more cards: ${row.percentOff}% off the cards` : `Orders from ${money(row.minSubtotal ?? '0')}: ${money(row.amountOff ?? '0')} off`);

function state(row: AutomaticRow, now = new Date()): { label: string; intent: 'success' | 'primary' | 'none' } {
  if (row.startsAt && new Date(row.startsAt) > now) return { label: 'Scheduled', intent: 'primary' };
  if (row.endsAt && new Date(row.endsAt) <= now) return { label: 'Ended', intent: 'none' };
  return { label: 'Active', intent: 'success' };
}

/** Automatic discounts: the list, "New automatic discount" (its dialog kept in the address as `?action=new-automatic`) and Delete. */
export function AutomaticDiscountsPanel() {
  const { data, error, refetch } = useQuery(AutomaticDiscountsQuery, { fetchPolicy: 'cache-and-network' });
  const [params, changeParams] = useUrlParams();
  const [deleting, setDeleting] = useState<AutomaticRow | null>(null);
  const [deleteDiscount] = useMutation(DeleteAutomaticDiscountMutation);
  const creating = params.get('action') === 'new-automatic';

  const remove = async () => {
    const row = deleting;
    setDeleting(null);
    if (!row) return;
    try {
      await deleteDiscount({ variables: { id: row.id } });
      await refetch();
      void snackbar('Automatic discount deleted successfully!');
    } catch (err) {
      reportError('deleting automatic discount', 'Failed to delete automatic discount', err);
    }
  };

  const rows = data?.automaticDiscounts;
  return (
    <section className="automatic-discounts" aria-labelledby="automatic-discounts-title">
      <div className="discounts-toolbar">
        <H3 id="automatic-discounts-title">Automatic discounts</H3>
        <Button icon="add" text="New automatic discount" onClick={() => changeParams({ action: 'new-automatic' })} />
      </div>
      {error && !rows ? (
        <Callout intent="danger" title="Automatic discounts could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !rows ? (
        <Spinner className="discounts-state" />
      ) : rows.length === 0 ? (
        <NonIdealState icon="automatic-updates" title="No automatic discounts" description="No code needed: “3 cards, 15 % off” or “Orders from $50: $5 off”. The best one applies; a code applies instead only when it saves more." />
      ) : (
        <div className="discounts-table-wrap">
          <table className="bp6-html-table bp6-html-table-striped discounts-table" aria-label="Automatic discounts">
            <thead>
              <tr>
                <th>Name</th>
                <th>Discount</th>
                <th>Starts</th>
                <th>Ends</th>
                <th>State</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const { label, intent } = state(row);
                return (
                  <tr key={row.id}>
                    <td>{row.name}</td>
                    <td>{termsOf(row)}</td>
                    <td>{row.startsAt ? dateTime(row.startsAt) : '—'}</td>
                    <td>{row.endsAt ? dateTime(row.endsAt) : '—'}</td>
                    <td>
                      <Tag minimal intent={intent}>
                        {label}
                      </Tag>
                    </td>
                    <td className="discounts-actions">
                      <Button variant="minimal" icon="trash" intent="danger" aria-label={`Delete ${row.name}`} title="Delete" onClick={() => setDeleting(row)} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {creating && (
        <AutomaticDiscountDialog
          onClose={() => changeParams({ action: null })}
          onSaved={() => {
            changeParams({ action: null });
            void refetch();
          }}
        />
      )}
      <ConfirmAlert isOpen={deleting !== null} message={DELETE_AUTOMATIC_QUESTION} onConfirm={() => void remove()} onCancel={() => setDeleting(null)} />
    </section>
  );
}
