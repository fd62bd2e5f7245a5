import { ComingSoon } from '../../common/ComingSoon';

export default function OrderConfirmationPage() {
  return (
    <ComingSoon title="Order confirmation" icon="tick-circle">
      Your order and the links to your e-cards will be shown here.
    </ComingSoon>
  );
}
