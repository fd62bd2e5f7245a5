import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useMutation, useQuery } from '@apollo/client/react';
import { Card, Icon } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorMessage } from '../../apollo/errors';
import { CodeEntry } from '../checkout/CodeEntry';
import { GiftMembershipProductQuery, MyMembershipQuery, RedeemGiftMembershipMutation } from './membership-operations';

/** A code as the e-mail's link carries it: /membership#gift=ACDE-FGHJ-KMNP-QR34 (the fragment never reaches a server). */
const codeInAddress = (hash: string) => /^#gift=([\w-]{1,64})$/.exec(hash)?.[1] ?? '';

/**
 * Memberships as presents on /membership: "Redeem a gift" (the code from the e-mail, filled in when
 * its link was followed; a visitor is asked to sign in first, and comes back with the code) and "Give
 * a membership" (the shop's gift membership product, when it sells one).
 */
export function GiftMembershipSection({ signedIn, canRedeem }: { signedIn: boolean; canRedeem: boolean }) {
  const intl = useIntl();
  const location = useLocation();
  const [code, setCode] = useState(() => codeInAddress(location.hash));
  const [problem, setProblem] = useState<string | null>(null);
  const [redeem, redeeming] = useMutation(RedeemGiftMembershipMutation, {
    refetchQueries: [MyMembershipQuery],
    awaitRefetchQueries: true,
  });
  const product = useQuery(GiftMembershipProductQuery, {
    fetchPolicy: 'cache-and-network',
  });
  const productId = product.data?.giftMembershipProductId ?? null;

  const apply = async () => {
    if (!code.trim()) return setProblem(intl.formatMessage({ id: 'membership.gift.codeMissing', defaultMessage: 'Enter the code from the e-mail.' }));
    setProblem(null);
    try {
      await redeem({ variables: { code: code.trim() } });
      setCode('');
      if (location.hash) window.history.replaceState(window.history.state, '', location.pathname);
    } catch (failure) {
      setProblem(errorMessage(failure, intl.formatMessage({ id: 'membership.gift.redeemFailed', defaultMessage: 'The code could not be redeemed. Please try again.' })));
    }
  };

  return (
    <section className="membership-gifts" aria-labelledby="membership-gifts-title">
      <h2 id="membership-gifts-title">
        <FormattedMessage id="membership.gift.title" defaultMessage="Memberships as presents" />
      </h2>
      <div className="membership-gift-cards">
        {canRedeem && (
          <Card className="membership-gift-card">
            <h3>
              <Icon icon="redo" aria-hidden /> <FormattedMessage id="membership.gift.redeemTitle" defaultMessage="Redeem a gift" />
            </h3>
            {signedIn ? (
              <CodeEntry
                id="gift-membership-code"
                label={intl.formatMessage({ id: 'membership.gift.codeLabel', defaultMessage: 'The code from your e-mail' })}
                text={code}
                onText={setCode}
                problem={problem}
                onProblem={setProblem}
                onApply={() => void apply()}
                checking={redeeming.loading}
                applyText={intl.formatMessage({ id: 'membership.gift.redeem', defaultMessage: 'Redeem' })}
                inputProps={{
                  placeholder: 'XXXX-XXXX-XXXX-XXXX',
                  autoCapitalize: 'characters',
                  spellCheck: false,
                }}
              />
            ) : (
              <p>
                <FormattedMessage
                  id="membership.gift.signIn"
                  defaultMessage="<link>Sign in to redeem it</link> <muted>(or create an account on the same page): the membership becomes yours.</muted>"
                  values={{
                    link: (chunks) => (
                      <Link to="/login" state={{ from: `/membership${location.hash}` }}>
                        {chunks}
                      </Link>
                    ),
                    muted: (chunks) => <span className="muted">{chunks}</span>,
                  }}
                />
              </p>
            )}
          </Card>
        )}
        {productId !== null && (
          <Card className="membership-gift-card">
            <h3>
              <Icon icon="heart" aria-hidden /> <FormattedMessage id="membership.gift.giveTitle" defaultMessage="Give a membership" />
            </h3>
            <p className="muted">
              <FormattedMessage id="membership.gift.giveAbout" defaultMessage="A month or a year of the plan you choose, e-mailed with its code to whom you like. It never renews or charges them." />
            </p>
            <Link to={`/product/${productId}`} className="bp6-button bp6-intent-primary">
              <FormattedMessage id="membership.gift.give" defaultMessage="Give a membership" />
            </Link>
          </Card>
        )}
      </div>
    </section>
  );
}
