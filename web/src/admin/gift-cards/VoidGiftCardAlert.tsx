import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, FormGroup, InputGroup } from '@blueprintjs/core';
import { errorField, errorMessage } from '../../apollo/errors';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { money } from '../orders/order-format';
import { maskedCode } from './gift-card-format';
import { GiftCardQuery, VoidGiftCardMutation } from './gift-cards-operations';

/**
 * "Void": the destructive confirmation, with the reason it asks for (audited). What the card holds is
 * gone; orders it paid keep what it paid.
 */
export function VoidGiftCardAlert({ id, onClose }: { id: number; onClose: () => void }) {
  const { data } = useQuery(GiftCardQuery, { variables: { id } });
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [voidCard, { loading }] = useMutation(VoidGiftCardMutation, { refetchQueries: ['GiftCards'] });
  const card = data?.giftCard.id === id ? data.giftCard : undefined;

  const confirm = async () => {
    if (!card) return;
    if (!reason.trim()) return setProblem('Say why the card is voided.');
    try {
      await voidCard({ variables: { id, reason: reason.trim() } });
      void snackbar(`Gift card ${maskedCode(card.last4)} voided`);
      onClose();
    } catch (failure) {
      if (errorField(failure) === 'reason') setProblem(errorMessage(failure, 'Please check the reason.'));
      else {
        onClose();
        reportError('voiding gift card', 'Failed to void the gift card', failure);
      }
    }
  };

  return (
    <Alert isOpen intent="danger" icon="disable" confirmButtonText="Void gift card" cancelButtonText="Cancel" loading={loading} onConfirm={() => void confirm()} onCancel={onClose} canEscapeKeyCancel className="gift-card-alert">
      <p>
        {card ? (
          <>
            Void gift card {maskedCode(card.last4)}? Its balance of <strong>{money(card.balance)}</strong> is gone for good and the code stops working. Orders it paid keep what it paid.
          </>
        ) : (
          'Void this gift card? Its balance is gone for good and the code stops working.'
        )}
      </p>
      <FormGroup label="Reason" labelFor="gift-card-void-reason" helperText={problem ?? 'Kept with the card and in the audit log.'} intent={problem ? 'danger' : 'none'}>
        <InputGroup
          id="gift-card-void-reason"
          value={reason}
          onValueChange={(value) => {
            setReason(value);
            setProblem(null);
          }}
          maxLength={500}
          intent={problem ? 'danger' : 'none'}
          autoFocus
        />
      </FormGroup>
    </Alert>
  );
}
