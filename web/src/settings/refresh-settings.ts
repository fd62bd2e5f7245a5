import type { ApolloClient } from '@apollo/client';
import { graphql } from '../apollo/generated';
import { settingsStore } from './settings-store';
import { shopStore } from './shop-store';

export const SiteSettingsQuery = graphql(`
  query SiteSettings {
    settings {
      underConstructionMode
      isAdmin
      shopName
      logo {
        id
        filePath
        width
        height
      }
      announcement {
        text
        link
      }
      defaultDeliveryHour
      timeZone
    }
  }
`);

/** Fetches the settings (with the session token) into the settings store; a failure is logged only. */
export async function refreshSettings(client: ApolloClient): Promise<void> {
  try {
    const { data } = await client.query({ query: SiteSettingsQuery, fetchPolicy: 'network-only' });
    if (!data) throw new Error('no data');
    settingsStore.setSettings(data.settings);
    shopStore.setShop(data.settings);
  } catch {
    console.error('Failed to fetch settings');
    settingsStore.setSettings({ underConstructionMode: false, isAdmin: false });
  }
}
