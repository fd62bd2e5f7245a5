import { ComingSoon } from '../../common/ComingSoon';

export default function CartPage() {
  return (
    <ComingSoon title="Your cart" icon="shopping-cart">
      The cards you choose wait here until you check out.
    </ComingSoon>
  );
}
