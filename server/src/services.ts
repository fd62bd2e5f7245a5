import type { AppConfig } from './config.js';
import { AuthService } from './modules/auth/auth.service.js';
import { TokenService } from './modules/auth/token.service.js';
import { SettingsService } from './modules/settings/settings.service.js';

/** The services of the product: one instance each per process, shared by GraphQL and REST. */
export interface Services {
  auth: AuthService;
  settings: SettingsService;
}

export function createServices(config: AppConfig, jwtSecret: string): Services {
  const tokens = new TokenService(jwtSecret, config.tokenTtlSeconds);
  return {
    auth: new AuthService(tokens, config.loginLimits),
    settings: new SettingsService(),
  };
}
