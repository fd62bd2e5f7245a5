import { AuthSession } from './modules/auth/auth-session.entity.js';
import { User } from './modules/auth/user.entity.js';
import { Setting } from './modules/settings/setting.entity.js';

/** Every entity of the product, in one list for the ORM. */
export const entities = [User, AuthSession, Setting];
