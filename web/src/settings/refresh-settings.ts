import type { ApolloClient } from '@apollo/client';
import { graphql } from '../apollo/generated';
import { settingsStore } from './settings-store';

export const SiteSettingsQuery = graphql(`
  query SiteSettings {
    settings {
      underConstructionMode
      isAdmin
    }
  }
`);

/** Fetches the settings (with the session token) into the settings store; a failure is logged only. */
export async function refreshSettings(client: ApolloClient): Promise<void> {
  try {
    const { data } = await client.query({ query: SiteSettingsQuery, fetchPolicy: 'network-only' });
    if (!data) throw new Error('no data');
    settingsStore.setSettings(data.settings);
  } catch {
    console.error('Failed to fetch settings');
    settingsStore.setSettings({ underConstructionMode: false, isAdmin: false });
  }
}
