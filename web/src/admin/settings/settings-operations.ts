import { graphql } from '../../apollo/generated';

/** Every setting as the Settings screen edits it (and the header shows it once saved). */
export const AdminSettingsFields = graphql(`
  fragment AdminSettingsFields on Settings {
    underConstructionMode
    isAdmin
    shopName
    logo {
      id
      filePath
      thumbnailPath
      friendlyName
      width
      height
    }
    supportEmail
    senderName
    defaultDeliveryHour
    timeZone
    announcementBar {
      enabled
      text
      link
    }
    announcement {
      text
      link
    }
  }
`);

export const AdminSettingsQuery = graphql(`
  query AdminSettings {
    settings {
      ...AdminSettingsFields
    }
  }
`);

export const UpdateSettingsMutation = graphql(`
  mutation UpdateSettings($input: UpdateSettingsInput!) {
    updateSettings(input: $input) {
      ...AdminSettingsFields
    }
  }
`);
