import { useQuery } from '@apollo/client/react';
import { Button, Callout, H2, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import { isGiftMembershipType } from '@rules';
import { useUrlParams } from '../../common/url-params';
import { money } from '../orders/order-format';
import { MembershipPlanDialog } from './MembershipPlanDialog';
import { AdminMembershipPlansQuery } from './memberships-operations';
import './memberships.css';

const PERIOD_LABEL = { MONTH: 'Month', YEAR: 'Year' } as const;

/**
 * Memberships (contract section 18): the plans shoppers can buy on /membership, those no longer
 * offered too, with "New plan" and a row's Edit. The dialog lives in the address (`?plan=new`,
 * `?plan=12`) so it survives a reload. A plan is never deleted: one not offered keeps its members.
 */
export function MembershipsScreen() {
  const [params, changeParams] = useUrlParams();
  const { data, error, refetch } = useQuery(AdminMembershipPlansQuery, { fetchPolicy: 'cache-and-network' });
  const plans = data?.adminMembershipPlans;
  const open = params.get('plan');
  const editing = open === 'new' ? null : plans?.find((plan) => String(plan.id) === open);

  return (
    <div className="memberships-screen">
      <div className="memberships-toolbar">
        <H2>Memberships</H2>
        <Button intent="primary" icon="add" text="New plan" onClick={() => changeParams({ plan: 'new' })} />
      </div>
      {error && !plans ? (
        <Callout intent="danger" title="Membership plans could not be loaded">
          <Button text="Retry" icon="refresh" onClick={() => void refetch()} />
        </Callout>
      ) : !plans ? (
        <Spinner className="memberships-state" />
      ) : plans.length === 0 ? (
        <NonIdealState className="memberships-state" icon="crown" title="No membership plans yet" description="A plan is a price a month or a year for e-cards included and a percentage off albums and collections. Shoppers buy it on the Membership page." />
      ) : (
        <div className="memberships-table-wrap">
          <table className="bp6-html-table bp6-html-table-striped memberships-table" aria-label="Membership plans">
            <thead>
              <tr>
                <th>Name</th>
                <th className="memberships-number">Price</th>
                <th>Period</th>
                <th>E-cards included</th>
                <th className="memberships-number">Percent off</th>
                <th>Offered</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {plans.map((plan) => (
                <tr key={plan.id} data-plan-id={plan.id}>
                  <td className="memberships-name">{plan.name}</td>
                  <td className="memberships-number" data-label="Price">
                    {money(plan.price)}
                  </td>
                  <td data-label="Period">{PERIOD_LABEL[plan.period]}</td>
                  <td data-label="E-cards included">{plan.ecardsIncluded ? 'Yes' : 'No'}</td>
                  <td className="memberships-number" data-label="Percent off">
                    {plan.percentOffOther} %
                  </td>
                  <td className="memberships-offered">
                    <Tag minimal intent={plan.active ? 'success' : 'none'}>
                      {plan.active ? 'Offered' : 'Not offered'}
                    </Tag>
                  </td>
                  <td className="memberships-actions">
                    <Button variant="minimal" icon="edit" aria-label={`Edit ${plan.name}`} title="Edit" onClick={() => changeParams({ plan: String(plan.id) })} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {plans && plans.length > 0 && data && <GiftMembershipsHint productId={data.giftMembershipProductId ?? null} typeId={data.productTypes.find((type) => isGiftMembershipType(type.name))?.id ?? null} />}
      {(open === 'new' || editing) && <MembershipPlanDialog key={open} plan={editing ?? null} onClose={() => changeParams({ plan: null })} />}
    </div>
  );
}

/** How the plans are sold as presents: through the product of the type "Gift Membership" (its page offers the plans, each at its own price). */
function GiftMembershipsHint({ productId, typeId }: { productId: number | null; typeId: number | null }) {
  return (
    <Callout className="memberships-gifts" icon="heart" title="Memberships as presents">
      {productId !== null ? (
        <>
          Shoppers give the plans offered through <Link to={`/admindash/products/${productId}`}>the gift membership product</Link>: they choose a plan on its page and pay the plan&apos;s price; its recipient redeems the e-mailed code on the Membership page.
        </>
      ) : (
        <>
          To sell the plans as presents, add a product of the type &ldquo;Gift Membership&rdquo;: its page offers the plans, each at the plan&apos;s price.{' '}
          {typeId !== null && <Link to={`/admindash/products/new?type=${typeId}`}>Add a gift membership product</Link>}
        </>
      )}
    </Callout>
  );
}
