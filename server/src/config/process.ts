/** What this process does (APP_ROLE) and whether it seeds the demo catalogue (SEED_DEMO). */

export type AppRole = 'all' | 'web' | 'worker';

/** Whether this process serves HTTP and whether it runs the background jobs (the e-mail queue). */
export const servesHttp = (role: AppRole) => role !== 'worker';
export const runsJobs = (role: AppRole) => role !== 'web';

export function parseAppRole(raw: string | undefined): AppRole {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return 'all';
  if (value === 'all' || value === 'web' || value === 'worker') return value;
  throw new Error(`APP_ROLE must be all, web or worker, got "${raw}"`);
}

/** SEED_DEMO: unset or "auto", "1" (also true/yes/on) or "0" (also false/no/off). */
export function parseSeedDemo(raw: string | undefined): 'auto' | boolean {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'auto') return 'auto';
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new Error(`SEED_DEMO must be 0, 1 or auto, got "${raw}"`);
}
