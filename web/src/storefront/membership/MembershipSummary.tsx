import { useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Card, Tag } from '@blueprintjs/core';
import { defineMessage, FormattedMessage, useIntl } from 'react-intl';
import { errorMessage } from '../../apollo/errors';
import { LazyAlert } from '../../common/LazyAlert';
import type { MembershipPage_MembershipFragment } from '../../apollo/generated/graphql';
import { graceEnd, longDate, membershipState, planBenefits, planPrice } from './membership-format';
import { CancelMembershipMutation, ResumeMembershipMutation } from './membership-operations';
import { TitledCallout } from './TitledCallout';

const CANCEL = defineMessage({ id: 'membership.summary.cancel', defaultMessage: 'Cancel membership' });

/**
 * A member's membership: the plan, where it stands ("Renews on …", "Cancelled: ends on …"), the card
 * renewals charge, and "Cancel membership" (confirmed: the benefits last to the end of the period
 * paid for) or "Resume membership". A declined renewal says until when the benefits last.
 */
export function MembershipSummary({ membership }: { membership: MembershipPage_MembershipFragment }) {
  const intl = useIntl();
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [cancel, cancelling] = useMutation(CancelMembershipMutation);
  const [resume, resuming] = useMutation(ResumeMembershipMutation);
  const state = membershipState(membership);
  const pastDue = membership.status === 'PAST_DUE';
  const benefitsEnd = longDate(pastDue ? graceEnd(membership) : membership.currentPeriodEnd);

  const act = async (run: () => Promise<unknown>, fallback: string) => {
    setConfirming(false);
    setProblem(null);
    try {
      await run();
    } catch (failure) {
      setProblem(errorMessage(failure, fallback));
    }
  };

  return (
    <Card className="membership-summary" role="region" aria-labelledby="membership-summary-title">
      <div className="membership-summary-head">
        <h2 id="membership-summary-title">
          <FormattedMessage id="membership.summary.title" defaultMessage="Your {plan} membership" values={{ plan: membership.plan.name }} />
        </h2>
        <Tag minimal round intent={state.intent}>
          {state.label}
        </Tag>
      </div>
      <p className="membership-summary-state" role="status">
        {state.line}
      </p>
      <dl className="membership-facts">
        <dt>
          <FormattedMessage id="membership.summary.plan" defaultMessage="Plan" />
        </dt>
        <dd>
          <FormattedMessage id="membership.summary.planValue" defaultMessage="{plan}, {price}" values={{ plan: membership.plan.name, price: planPrice(membership.plan) }} />
        </dd>
        <dt>
          <FormattedMessage id="membership.summary.benefits" defaultMessage="Benefits" />
        </dt>
        <dd>{planBenefits(membership.plan).join(' · ') || '—'}</dd>
        {membership.giftFrom && (
          <>
            <dt>
              <FormattedMessage id="membership.summary.from" defaultMessage="From" />
            </dt>
            <dd>{membership.giftFrom}</dd>
          </>
        )}
        {membership.cardLast4 && (
          <>
            <dt>
              <FormattedMessage id="membership.summary.card" defaultMessage="Card" />
            </dt>
            <dd>
              <FormattedMessage id="membership.summary.cardEnding" defaultMessage="Ending {last4}" values={{ last4: membership.cardLast4 }} />
            </dd>
          </>
        )}
        <dt>
          <FormattedMessage id="membership.summary.since" defaultMessage="Member since" />
        </dt>
        <dd>{longDate(membership.createdAt)}</dd>
      </dl>
      {pastDue && (
        <TitledCallout intent="warning" icon="warning-sign" title={intl.formatMessage({ id: 'membership.summary.pastDue.title', defaultMessage: 'Your renewal was declined' })} className="membership-past-due">
          <FormattedMessage
            id="membership.summary.pastDue.text"
            defaultMessage="The benefits last until {date}; become a member again with another card below to keep them."
            values={{ date: benefitsEnd }}
          />
        </TitledCallout>
      )}
      {problem && (
        <Callout intent="danger" role="alert">
          {problem}
        </Callout>
      )}
      {!membership.gift && (
        <div className="membership-actions">
          {membership.cancelAtPeriodEnd ? (
            <Button
              intent="primary"
              icon="refresh"
              text={intl.formatMessage({ id: 'membership.summary.resume', defaultMessage: 'Resume membership' })}
              loading={resuming.loading}
              onClick={() => void act(() => resume(), intl.formatMessage({ id: 'membership.summary.resumeFailed', defaultMessage: 'Your membership could not be resumed.' }))}
            />
          ) : (
            <Button variant="outlined" intent="danger" icon="cross-circle" text={intl.formatMessage(CANCEL)} loading={cancelling.loading} onClick={() => setConfirming(true)} />
          )}
        </div>
      )}
      <LazyAlert
        isOpen={confirming}
        intent="danger"
        icon="cross-circle"
        confirmButtonText={intl.formatMessage(CANCEL)}
        cancelButtonText={intl.formatMessage({ id: 'membership.summary.keep', defaultMessage: 'Keep my membership' })}
        onConfirm={() => void act(() => cancel(), intl.formatMessage({ id: 'membership.summary.cancelFailed', defaultMessage: 'Your membership could not be cancelled.' }))}
        onCancel={() => setConfirming(false)}
        canEscapeKeyCancel
        className="membership-alert"
      >
        <p>
          {pastDue ? (
            <FormattedMessage id="membership.summary.confirmPastDue" defaultMessage="Cancel your {plan} membership? It ends now, and its benefits with it." values={{ plan: membership.plan.name }} />
          ) : (
            <FormattedMessage
              id="membership.summary.confirm"
              defaultMessage="Cancel your {plan} membership? It will not renew; its benefits last until {date}, and you can resume it before then."
              values={{ plan: membership.plan.name, date: benefitsEnd }}
            />
          )}
        </p>
      </LazyAlert>
    </Card>
  );
}
