import { useEffect } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, H2, NonIdealState, Spinner } from '@blueprintjs/core';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { useUrlParams } from '../../common/url-params';
import { useShop } from '../../settings/shop-store';
import { SaleDialog } from './SaleDialog';
import { SalesTable } from './SalesTable';
import { zoneLabel } from './sale-format';
import { DeleteSaleMutation, PromotionSalesQuery } from './promotions-operations';
import './promotions.css';

export const DELETE_SALE_QUESTION = 'Delete this sale? Its products go back to their regular prices at once; orders placed during it keep what they paid.';

/**
 * Sales & promotions (contract section 17): the scheduled sales in a table, "New sale", and a row's
 * Edit and Delete. The open dialog lives in the address (`?sale=new`, `?sale=12`, `?sale=12&action=delete`)
 * so it survives a reload; times are the shop's (Settings → time zone), and the screen says so.
 */
export function PromotionsScreen() {
  const [params, changeParams] = useUrlParams();
  const { timeZone } = useShop();
  const { data, error, refetch } = useQuery(PromotionSalesQuery, { fetchPolicy: 'cache-and-network' });
  const [deleteSale] = useMutation(DeleteSaleMutation);

  const sales = data?.sales;
  const opened = params.get('sale');
  const openId = opened && opened !== 'new' ? Number(opened) : null;
  const openSale = openId !== null ? sales?.find((sale) => sale.id === openId) : undefined;
  const deleting = params.get('action') === 'delete' && openSale ? openSale : null;
  const close = () => changeParams({ sale: null, action: null });

  // An address naming a sale that is gone (deleted elsewhere, a stale link) opens nothing.
  useEffect(() => {
    if (sales && openId !== null && !openSale) changeParams({ sale: null, action: null }, { replace: true });
  }, [sales, openId, openSale, changeParams]);

  const remove = async () => {
    const sale = deleting;
    close();
    if (!sale) return;
    try {
      await deleteSale({ variables: { id: sale.id } });
      await refetch();
      void snackbar(`Sale “${sale.name}” deleted: its products are back at their regular prices.`);
    } catch (err) {
      reportError('deleting sale', 'Failed to delete the sale', err);
    }
  };

  return (
    <div className="promotions-screen">
      <div className="promotions-toolbar">
        <H2>Sales &amp; promotions</H2>
        <Button intent="primary" icon="add" text="New sale" onClick={() => changeParams({ sale: 'new', action: null })} />
      </div>
      <p className="promotions-intro">
        A sale takes a percentage or an amount off products and categories from its start to its end; the shop's prices change at that second. Where sales overlap, the lowest price wins. Times are in the shop's time zone, <strong>{zoneLabel(timeZone)}</strong>.
      </p>
      {error && !sales ? (
        <Callout intent="danger" title="Sales could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !sales ? (
        <Spinner className="promotions-state" aria-label="Loading sales" />
      ) : sales.length === 0 ? (
        <NonIdealState
          className="promotions-state"
          icon="percentage"
          title="No sales yet"
          description="Plan a sale ahead: Mother's Day, a birthday week, a quiet month. It starts and ends by itself."
          action={<Button intent="primary" icon="add" text="New sale" onClick={() => changeParams({ sale: 'new', action: null })} />}
        />
      ) : (
        <SalesTable sales={sales} timeZone={timeZone} onEdit={(id) => changeParams({ sale: String(id), action: null })} onDelete={(id) => changeParams({ sale: String(id), action: 'delete' })} />
      )}
      {(opened === 'new' || (openSale && !deleting)) && (
        <SaleDialog
          key={opened}
          sale={opened === 'new' ? null : openSale!}
          timeZone={timeZone}
          onClose={close}
          onSaved={() => {
            close();
            void refetch();
          }}
        />
      )}
      <ConfirmAlert isOpen={deleting !== null} message={DELETE_SALE_QUESTION} onConfirm={() => void remove()} onCancel={close} />
    </div>
  );
}
