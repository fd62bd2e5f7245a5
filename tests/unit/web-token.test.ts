import { describe, expect, it } from 'vitest';
import { decodeToken, InvalidTokenError, isExpired } from '../../web/src/auth/token.js';

const b64url = (value: string) => Buffer.from(value, 'utf8').toString('base64url');
const token = (payload: string) => `${b64url('{"alg":"HS256"}')}.${payload}.signature`;

describe('the token decoder', () => {
  it('decodes the payload part', () => {
    expect(decodeToken(token(b64url('{"sub":"1","username":"alice","exp":123}')))).toEqual({ sub: '1', username: 'alice', exp: 123 });
  });

  it('reads base64url without padding and UTF-8 text', () => {
    const payload = b64url('{"username":"zoë ☕","ab":"?>"}');
    expect(payload).not.toContain('=');
    expect(decodeToken(token(payload))).toEqual({ username: 'zoë ☕', ab: '?>' });
  });

  it.each([
    ['a number', 42],
    ['null', null],
    ['an object', { token: 'x' }],
  ])('rejects a token that is not a string (%s)', (_, value) => {
    expect(() => decodeToken(value)).toThrow(InvalidTokenError);
  });

  it.each(['', 'header-only', 'header.', '.'])('rejects a token without its payload part: %j', (value) => {
    expect(() => decodeToken(value)).toThrow(/no payload/);
  });

  it('rejects a payload that is not base64url', () => {
    expect(() => decodeToken('h.%%%***.s')).toThrow(InvalidTokenError);
  });

  it('rejects a payload that is not JSON, or not an object', () => {
    expect(() => decodeToken(token(b64url('not json')))).toThrow(/not JSON/);
    expect(() => decodeToken(token(b64url('[1,2]')))).toThrow(InvalidTokenError);
  });

  it('compares the expiry in seconds times 1000 against now', () => {
    expect(isExpired({ exp: 1000 }, 1_000_001)).toBe(true);
    expect(isExpired({ exp: 1000 }, 1_000_000)).toBe(false);
    expect(isExpired({}, Date.now())).toBe(false);
  });
});
