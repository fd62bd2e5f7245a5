import type { Services } from '../../../server/src/services.js';
import type { RouteDef } from '../route.js';
import { authRoutes } from './auth.routes.js';
import { settingsRoutes } from './settings.routes.js';

/** Every REST route under /api. */
export function restRoutes(services: Services): RouteDef[] {
  return [...authRoutes(services), ...settingsRoutes(services)];
}
