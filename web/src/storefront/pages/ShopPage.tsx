import { ComingSoon } from '../../common/ComingSoon';

export default function ShopPage() {
  return (
    <ComingSoon title="Shop" icon="shop">
      Browse every card, album and image collection by category, with search.
    </ComingSoon>
  );
}
