import { ComingSoon } from '../common/ComingSoon';

export default function BlogEditorPage() {
  return (
    <ComingSoon title="Blog editor" icon="edit">
      Write, preview and publish posts.
    </ComingSoon>
  );
}
