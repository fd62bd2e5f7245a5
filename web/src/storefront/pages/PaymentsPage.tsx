import { ComingSoon } from '../../common/ComingSoon';

export default function PaymentsPage() {
  return (
    <ComingSoon title="Payment" icon="credit-card">
      Pay securely for the cards in your cart.
    </ComingSoon>
  );
}
