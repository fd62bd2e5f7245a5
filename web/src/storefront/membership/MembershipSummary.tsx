import { useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Alert, Button, Callout, Card, Tag } from '@blueprintjs/core';
import { errorMessage } from '../../apollo/errors';
import type { MembershipPage_MembershipFragment } from '../../apollo/generated/graphql';
import { graceEnd, longDate, membershipState, planBenefits, planPrice } from './membership-format';
import { CancelMembershipMutation, ResumeMembershipMutation } from './membership-operations';
import { TitledCallout } from './TitledCallout';

/**
 * A member's membership: the plan, where it stands ("Renews on …", "Cancelled: ends on …"), the card
 * renewals charge, and "Cancel membership" (confirmed: the benefits last to the end of the period
 * paid for) or "Resume membership". A declined renewal says until when the benefits last.
 */
export function MembershipSummary({ membership }: { membership: MembershipPage_MembershipFragment }) {
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
        <h2 id="membership-summary-title">Your {membership.plan.name} membership</h2>
        <Tag minimal round intent={state.intent}>
          {state.label}
        </Tag>
      </div>
      <p className="membership-summary-state" role="status">
        {state.line}
      </p>
      <dl className="membership-facts">
        <dt>Plan</dt>
        <dd>
          {membership.plan.name}, {planPrice(membership.plan)}
        </dd>
        <dt>Benefits</dt>
        <dd>{planBenefits(membership.plan).join(' · ') || '—'}</dd>
        {membership.giftFrom && (
          <>
            <dt>From</dt>
            <dd>{membership.giftFrom}</dd>
          </>
        )}
        {membership.cardLast4 && (
          <>
            <dt>Card</dt>
            <dd>Ending {membership.cardLast4}</dd>
          </>
        )}
        <dt>Member since</dt>
        <dd>{longDate(membership.createdAt)}</dd>
      </dl>
      {pastDue && (
        <TitledCallout intent="warning" icon="warning-sign" title="Your renewal was declined" className="membership-past-due">
          The benefits last until {benefitsEnd}; become a member again with another card below to keep them.
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
            <Button intent="primary" icon="refresh" text="Resume membership" loading={resuming.loading} onClick={() => void act(() => resume(), 'Your membership could not be resumed.')} />
          ) : (
            <Button variant="outlined" intent="danger" icon="cross-circle" text="Cancel membership" loading={cancelling.loading} onClick={() => setConfirming(true)} />
          )}
        </div>
      )}
      <Alert
        isOpen={confirming}
        intent="danger"
        icon="cross-circle"
        confirmButtonText="Cancel membership"
        cancelButtonText="Keep my membership"
        onConfirm={() => void act(() => cancel(), 'Your membership could not be cancelled.')}
        onCancel={() => setConfirming(false)}
        canEscapeKeyCancel
        className="membership-alert"
      >
        <p>
          {pastDue
            ? `Cancel your ${membership.plan.name} membership? It ends now, and its benefits with it.`
            : `Cancel your ${membership.plan.name} membership? It will not renew; its benefits last until ${benefitsEnd}, and you can resume it before then.`}
        </p>
      </Alert>
    </Card>
  );
}
