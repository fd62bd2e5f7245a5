import argon2 from 'argon2';

/** Argon2id's cost: memory in KiB, passes over it, lanes. */
export interface PasswordHashCost {
  memoryKib: number;
  iterations: number;
  parallelism: number;
}

/**
 * What every password of the shop is hashed with: argon2id, 64 MiB, 3 passes, 4 lanes (the argon2
 * library's defaults, above RFC 9106's second recommended option and OWASP's minimum). There is no
 * setting to lower it; only the tests, which hash thousands of throwaway passwords, pass a cheaper one.
 */
export const PASSWORD_HASH_COST: PasswordHashCost = { memoryKib: 65_536, iterations: 3, parallelism: 4 };

/** Hashes and checks passwords (a hash names its own cost, so one made with another cost still verifies). */
export class Passwords {
  constructor(private readonly cost: PasswordHashCost = PASSWORD_HASH_COST) {}

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, memoryCost: this.cost.memoryKib, timeCost: this.cost.iterations, parallelism: this.cost.parallelism });
  }

  verify(hash: string, password: string): Promise<boolean> {
    return argon2.verify(hash, password);
  }
}
