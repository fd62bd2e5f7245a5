import type { TypePolicies } from '@apollo/client';

/** Cache policies: singletons without ids are merged, not replaced. */
export const typePolicies: TypePolicies = {
  Settings: { keyFields: [] },
};
