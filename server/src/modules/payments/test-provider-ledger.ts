import pg from 'pg';

/** What the test provider records: a subscription's first charge or one of its renewals. */
export type LedgerOperation = 'subscription-start' | 'subscription-renew';

/**
 * Where the test provider keeps the outcome of each subscription charge by its idempotency key: a
 * repeated key is answered with the first outcome, never charged again.
 */
export interface ProviderLedger {
  /** Keeps `outcome` under `key` unless the key has one already; answers the outcome kept and whether it is this one. */
  record<T extends object>(key: string, operation: LedgerOperation, outcome: T): Promise<{ outcome: T; first: boolean }>;
  /** The outcome kept under `key`, or null. */
  find<T extends object>(key: string): Promise<T | null>;
}

/** A ledger in this process's memory: what the provider uses until it is given the database (unit tests). */
export class MemoryLedger implements ProviderLedger {
  private readonly outcomes = new Map<string, object>();

  async record<T extends object>(key: string, _operation: LedgerOperation, outcome: T): Promise<{ outcome: T; first: boolean }> {
    const earlier = this.outcomes.get(key) as T | undefined;
    if (earlier) return { outcome: earlier, first: false };
    this.outcomes.set(key, outcome);
    return { outcome, first: true };
  }

  async find<T extends object>(key: string): Promise<T | null> {
    return (this.outcomes.get(key) as T | undefined) ?? null;
  }
}

const RECORD = {
  name: 'test_provider_ledger_record',
  text: `insert into test_provider_ledger (idempotency_key, operation, outcome) values ($1, $2, $3::jsonb) on conflict (idempotency_key) do nothing returning idempotency_key`,
};
const FIND = { name: 'test_provider_ledger_find', text: `select outcome from test_provider_ledger where idempotency_key = $1` };

/**
 * The ledger in the shop's database (table `test_provider_ledger`), as an outside payment service
 * keeps its keys whatever becomes of the shop's processes: a process killed between the charge and
 * its own commit leaves the next process to get the same answer. It has connections of its own, and
 * each call is a statement of its own (committed at once, never part of the shop's transaction).
 *
 * A key is inserted first (ON CONFLICT DO NOTHING) and read only when it was there already: a second
 * process charging the same key at the same moment waits on the first one's insert, then reads its
 * outcome in a statement of its own (a fresh snapshot that sees it).
 */
export class PostgresLedger implements ProviderLedger {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 4, idleTimeoutMillis: 10_000, application_name: 'test-payment-provider' });
    // A connection lost while idle is dropped by the pool; the next call opens another.
    this.pool.on('error', () => {});
  }

  async record<T extends object>(key: string, operation: LedgerOperation, outcome: T): Promise<{ outcome: T; first: boolean }> {
    const inserted = await this.pool.query({ ...RECORD, values: [key, operation, JSON.stringify(outcome)] });
    if (inserted.rowCount) return { outcome, first: true };
    const earlier = await this.find<T>(key);
    if (!earlier) throw new Error(`The test provider's ledger lost the key ${key}`);
    return { outcome: earlier, first: false };
  }

  async find<T extends object>(key: string): Promise<T | null> {
    const { rows } = await this.pool.query<{ outcome: T }>({ ...FIND, values: [key] });
    return rows[0]?.outcome ?? null;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
