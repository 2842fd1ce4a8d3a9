import { MikroORM, type EntitySchema } from '@mikro-orm/postgresql';
import { knex, type Knex } from '@mikro-orm/knex';
import { Migrator } from '@mikro-orm/migrations';
import type { MigrationSource } from './migrations.js';
import { PreparedStatements, type PgConnection } from './prepared.js';

export const MIGRATIONS_TABLE = 'patchbay_migrations';

/** The advisory lock migrations run under: 'patchbay' in ASCII. */
const MIGRATION_LOCK = BigInt('0x7061746368626179').toString();

export interface DatabaseOptions {
  /** Milliseconds a statement may run before PostgreSQL cancels it; 0 for no limit. */
  statementTimeoutMs: number;
  /** Repeated statements run as prepared statements (`PreparedStatements`). */
  prepared?: boolean;
  /** Connections the pool may hold at once. */
  poolSize: number;
}

/** The ORM, its knex query builder and the migrations of every enabled plugin. */
export class Database {
  /** SQL statements run so far; tests read it around a request to assert query budgets. */
  queryCount = 0;
  private background?: Knex;

  private constructor(
    readonly orm: MikroORM,
    private readonly migrations: MigrationSource[],
    readonly url: string,
    private readonly connectListeners: (() => void)[],
  ) {
    this.knex.on('query', () => {
      this.queryCount += 1;
    });
  }

  static async open(url: string, entities: EntitySchema[], migrations: MigrationSource[], { statementTimeoutMs, prepared, poolSize }: DatabaseOptions): Promise<Database> {
    const connectListeners: (() => void)[] = [];
    const statements = prepared ? new PreparedStatements() : undefined;
    const orm = await MikroORM.init({
      clientUrl: url,
      entities,
      extensions: [Migrator],
      migrations: {
        tableName: MIGRATIONS_TABLE,
        migrationsList: migrations.map((m) => ({ name: m.name, class: m.migration })),
        transactional: true,
        allOrNothing: true,
        snapshot: false,
        silent: true,
      },
      // UTC timestamps; SSD-era page costs, without which the planner prefers a sequential scan to the trigram indexes;
      // no parallel plans: at 150,000 devices a page's component counts (2 ms of work) planned two workers and took
      // 12–18 ms to start them, and concurrent requests keep the cores busy anyway; no statement runs unbounded.
      driverOptions: {
        connection: {
          options: `-c TimeZone=UTC -c random_page_cost=1.1 -c max_parallel_workers_per_gather=0 -c statement_timeout=${statementTimeoutMs}`,
          connectionTimeoutMillis: 10_000,
        },
      },
      pool: {
        min: 0,
        max: poolSize,
        // A request waits this long for a connection (a busy pool, a database coming back), then answers 503.
        acquireTimeoutMillis: 10_000,
        afterCreate: (connection: PgConnection, done: (err: Error | null, connection: unknown) => void) => {
          statements?.attach(connection);
          for (const listener of connectListeners) listener();
          done(null, connection);
        },
      },
      allowGlobalContext: true,
      debug: false,
    });
    return new Database(orm, migrations, url, connectListeners);
  }

  /** Calls `listener` whenever the pool opens a new connection to PostgreSQL. */
  onConnect(listener: () => void): void {
    this.connectListeners.push(listener);
  }

  get knex(): Knex {
    return this.orm.em.getKnex();
  }

  /**
   * Applies pending migrations in order, then `after`, in one transaction under an advisory lock: of several processes
   * starting together one migrates, the others wait for it and find nothing left to do. Returns the names applied.
   */
  async migrate(after?: (trx: Knex.Transaction) => Promise<void>): Promise<string[]> {
    return this.knex.transaction(async (trx) => {
      // Migrations (and the wait for another process's) may take long: STATEMENT_TIMEOUT is for requests.
      await trx.raw('set local statement_timeout = 0');
      await trx.raw('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
      const done = await this.orm.getMigrator().up({ transaction: trx });
      await after?.(trx);
      return done.map((m) => m.name);
    });
  }

  async pendingMigrations(): Promise<string[]> {
    return (await this.orm.getMigrator().getPendingMigrations()).map((m) => m.name);
  }

  /** Names of every migration known to this server, applied or not. */
  get migrationNames(): string[] {
    return this.migrations.map((m) => m.name);
  }

  async ping(): Promise<boolean> {
    try {
      await this.knex.raw('select 1');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * A small pool of its own for background machinery (the PostgreSQL queue's polling and heartbeats): it never waits
   * behind requests for a connection, nor takes one from them, and its statements are not the requests' (queryCount).
   */
  get backgroundKnex(): Knex {
    this.background ??= knex({ client: 'pg', connection: this.url, pool: { min: 0, max: 2 } });
    return this.background;
  }

  async close(): Promise<void> {
    await this.background?.destroy();
    await this.orm.close(true);
  }
}
