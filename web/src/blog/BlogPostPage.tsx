import { ComingSoon } from '../common/ComingSoon';

export default function BlogPostPage() {
  return (
    <ComingSoon title="Blog post" icon="document">
      This post will be shown here.
    </ComingSoon>
  );
}
