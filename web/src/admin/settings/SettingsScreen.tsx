import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Card, H2, H4, Switch } from '@blueprintjs/core';
import { errorField, errorMessage } from '../../apollo/errors';
import { settingsStore } from '../../settings/settings-store';
import { shopStore } from '../../settings/shop-store';
import { snackbar, toaster } from '../../common/toaster';
import { checkDraft, draftOf, inputOf, type FieldErrors, type SettingsDraft, type SettingsField } from './settings-form';
import { AdminSettingsQuery, UpdateSettingsMutation } from './settings-operations';
import { SettingsFields } from './SettingsFields';
import './settings.css';

/**
 * The Settings screen: the under-construction switch and the shop's settings (name, logo, e-mail,
 * delivery defaults, announcement bar), all local until saved. Every field is checked by the shop's
 * rules before saving; a field the server refuses shows its message in place.
 */
export function SettingsScreen() {
  const { data, error } = useQuery(AdminSettingsQuery, { fetchPolicy: 'network-only' });
  const [save, { loading: saving }] = useMutation(UpdateSettingsMutation);
  const [draft, setDraft] = useState<SettingsDraft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});

  useEffect(() => {
    if (data && !draft) setDraft(draftOf(data.settings));
  }, [data, draft]);

  useEffect(() => {
    if (!error) return;
    console.error('Error fetching settings:', error);
    void snackbar(`Error fetching settings: ${error.message}`, 'danger');
  }, [error]);

  const change = (patch: Partial<SettingsDraft>) => setDraft((current) => (current ? { ...current, ...patch } : current));

  const onSave = async () => {
    if (!draft) return;
    const problems = checkDraft(draft);
    setErrors(problems);
    if (Object.keys(problems).length) {
      void snackbar('Error saving settings: Failed to save settings', 'danger', 'Correct the fields marked in red.');
      return;
    }
    try {
      const result = await save({ variables: { input: inputOf(draft) } });
      if (!result.data) throw new Error('Failed to save settings');
      const saved = result.data.updateSettings;
      settingsStore.setSettings(saved);
      shopStore.setShop(saved);
      setDraft(draftOf(saved));
      // An earlier attempt's error no longer holds.
      (await toaster()).clear();
      void snackbar('Settings saved successfully!');
    } catch (e) {
      console.error('Error saving settings:', e);
      const field = errorField(e) as SettingsField | undefined;
      if (field) setErrors({ [field]: errorMessage(e, 'Not accepted.') });
      void snackbar('Error saving settings: Failed to save settings', 'danger', errorMessage(e, ''));
    }
  };

  const loading = !draft;
  return (
    <div className="settings-screen">
      <H2>Settings</H2>
      <Card className="settings-card" elevation={1}>
        <H4>General Settings</H4>
        <Switch
          className="uc-switch"
          large
          inline={false}
          label="Under Construction Mode"
          checked={draft?.underConstructionMode ?? false}
          disabled={loading}
          onChange={(event) => change({ underConstructionMode: event.currentTarget.checked })}
        />
        <p className="muted settings-hint">While on, only a signed-in admin sees the shop; everyone else sees a short notice.</p>
      </Card>
      {draft && <SettingsFields draft={draft} errors={errors} disabled={saving} onChange={change} />}
      <div className="settings-actions">
        <Button intent="primary" size="large" icon="floppy-disk" text="Save" onClick={onSave} loading={saving} disabled={loading} />
      </div>
    </div>
  );
}
