import { ComingSoon } from '../common/ComingSoon';

export default function BlogListPage() {
  return (
    <ComingSoon title="Blog" icon="manual">
      Stories, ideas and news from the shop.
    </ComingSoon>
  );
}
