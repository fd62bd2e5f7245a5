/** scripts/message-sources.mjs, as TypeScript reads it. */
export interface Catalogue {
  /** `web` (the storefront) or `server` (e-mails, the e-card and signing pages). */
  name: string;
  /** The folder of its `{locale}.json` files, from the project's root. */
  dir: string;
  sources: string[];
  ignore: string[];
}
export declare const CATALOGUES: Catalogue[];
export declare function extractCatalogue(root: string, catalogue: Catalogue): Promise<string>;
