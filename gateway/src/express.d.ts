import type { RequestContext } from '../../server/src/core/context.js';

declare global {
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
    interface Locals {
      /** The shop's own address (PUBLIC_URL): what absolute links on its pages start with. */
      publicUrl: string;
      /** Set on a response whose file is served under an address made from its content (cached for good). */
      immutable?: boolean;
    }
  }
}
export {};
