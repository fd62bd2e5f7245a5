import { SettingsScreen } from './SettingsScreen';

/** /settings: the Settings screen on its own page. */
export default function SettingsPage() {
  return (
    <div className="page-narrow">
      <SettingsScreen />
    </div>
  );
}
