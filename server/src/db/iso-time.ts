/**
 * A timestamp as the shop's JSON writes it everywhere: ISO 8601 in UTC with milliseconds
 * (`2026-11-30T10:00:00.000Z`, as JavaScript's toISOString writes it), for JSON built in PostgreSQL,
 * whose own text of a timestamptz follows the session's time zone.
 */
export const isoTimeSql = (expression: string): string => `to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
