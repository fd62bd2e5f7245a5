/**
 * A json or jsonb column as the driver hands it over: pg parses both; a driver that does not gives
 * their text, parsed here. For columns that hold objects, arrays or null (a json string would be
 * parsed twice).
 */
export const jsonColumn = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
