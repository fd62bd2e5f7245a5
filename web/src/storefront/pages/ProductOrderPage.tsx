import { ComingSoon } from '../../common/ComingSoon';

export default function ProductOrderPage() {
  return (
    <ComingSoon title="Product" icon="media">
      See a card open, hear its songs and make it yours with a personal message.
    </ComingSoon>
  );
}
