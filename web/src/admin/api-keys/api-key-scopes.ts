import { API_SCOPE_DOCS } from '@rules';

/** The scopes a key may be given, with what each lets an integration do (the shared rules' list, which the server checks). */
export const API_KEY_SCOPES = API_SCOPE_DOCS.map(({ scope, label, help }) => ({ scope, label, help }));

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number]['scope'];
