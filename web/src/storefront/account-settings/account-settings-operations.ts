import { graphql } from '../../apollo/generated';

export const MyAccountQuery = graphql(`
  query MyAccount {
    myAccount {
      id
      username
      email
      emailConfirmed
      pendingEmail
      pendingEmailSentAt
      notifyOpened
    }
  }
`);

export const UpdateAccountSettingsMutation = graphql(`
  mutation UpdateAccountSettings($input: UpdateAccountSettingsInput!) {
    updateAccountSettings(input: $input) {
      id
      notifyOpened
    }
  }
`);

export const ChangeEmailMutation = graphql(`
  mutation ChangeEmail($input: ChangeEmailInput!) {
    changeEmail(input: $input) {
      message
    }
  }
`);

export const ResendEmailConfirmationMutation = graphql(`
  mutation ResendEmailConfirmation {
    resendEmailConfirmation {
      message
    }
  }
`);

export const DeleteAccountMutation = graphql(`
  mutation DeleteAccount($input: DeleteAccountInput!) {
    deleteAccount(input: $input)
  }
`);
