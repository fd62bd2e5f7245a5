import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Card, H2, H4, Switch } from '@blueprintjs/core';
import { graphql } from '../../apollo/generated';
import { settingsStore } from '../../settings/settings-store';
import { MessageBar, type Message } from './MessageBar';

export const AdminSettingsQuery = graphql(`
  query AdminSettings {
    settings {
      underConstructionMode
      isAdmin
    }
  }
`);

export const UpdateSettingsMutation = graphql(`
  mutation UpdateSettings($input: UpdateSettingsInput!) {
    updateSettings(input: $input) {
      underConstructionMode
      isAdmin
    }
  }
`);

/** The Settings screen: the under-construction switch, local until saved. */
export function SettingsScreen() {
  const { data, error } = useQuery(AdminSettingsQuery, { fetchPolicy: 'network-only' });
  const [save, { loading: saving }] = useMutation(UpdateSettingsMutation);
  const [underConstruction, setUnderConstruction] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  const loaded = useRef(false);

  useEffect(() => {
    if (data && !loaded.current) {
      loaded.current = true;
      setUnderConstruction(data.settings.underConstructionMode);
    }
  }, [data]);

  useEffect(() => {
    if (!error) return;
    console.error('Error fetching settings:', error);
    setMessage({ text: `Error fetching settings: ${error.message}`, intent: 'danger' });
  }, [error]);

  const onSave = async () => {
    try {
      const result = await save({ variables: { input: { underConstructionMode: underConstruction } } });
      if (!result.data) throw new Error('Failed to save settings');
      settingsStore.setSettings(result.data.updateSettings);
      setMessage({ text: 'Settings saved successfully!', intent: 'success' });
    } catch (e) {
      console.error('Error saving settings:', e);
      setMessage({ text: 'Error saving settings: Failed to save settings', intent: 'danger' });
    }
  };

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
          checked={underConstruction}
          disabled={!data}
          onChange={(event) => setUnderConstruction(event.currentTarget.checked)}
        />
        <p className="muted settings-hint">While on, only a signed-in admin sees the shop; everyone else sees a short notice.</p>
        <Button intent="primary" icon="floppy-disk" text="Save" onClick={onSave} loading={saving} disabled={!data} />
      </Card>
      <MessageBar message={message} onClose={() => setMessage(null)} />
    </div>
  );
}
