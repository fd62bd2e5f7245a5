import type { RequestContext } from '../../server/src/core/context.js';

declare global {
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
  }
}
export {};
