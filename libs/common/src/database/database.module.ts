import { createHash } from 'node:crypto';
import { DynamicModule, Logger, Module } from '@nestjs/common';
import { TypeOrmModule, TypeOrmModuleOptions } from '@nestjs/typeorm';
import type { PoolClient } from 'pg';
import { DataSource, DataSourceOptions, MigrationInterface, MixedList } from 'typeorm';
import { SandboxConfig } from '../config/sandbox-config';
import { EmbeddedPostgres } from './embedded-postgres';
import { TypeOrmLogger } from './typeorm-logger';

export interface DatabaseModuleOptions {
  /** Migration classes in order (imported, never globbed, so the build emits them as files). */
  migrations: MixedList<new () => MigrationInterface>;
}

/** A key for pg_advisory_lock: several instances starting together migrate one at a time. */
const MIGRATION_LOCK_KEY = 727_271_001;

/** Owns the embedded database so that it stops after the last connection closed. */
class SandboxDataSource extends DataSource {
  constructor(
    options: DataSourceOptions,
    private readonly embedded: EmbeddedPostgres | null,
  ) {
    super(options);
  }

  override async destroy(): Promise<void> {
    try {
      if (this.isInitialized) await super.destroy();
    } finally {
      await this.embedded?.stop();
    }
  }
}

/**
 * TypeORM on PostgreSQL: the server named by DATABASE_URL, else the embedded PostgreSQL under
 * DATA_DIR. The schema comes only from migrations, run at start; never `synchronize`.
 */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    let embedded: EmbeddedPostgres | null = null;
    let saveTemplate: ((embedded: EmbeddedPostgres) => Promise<void>) | null = null;
    return TypeOrmModule.forRootAsync({
      inject: [SandboxConfig],
      useFactory: async (config: SandboxConfig): Promise<TypeOrmModuleOptions> => {
        const common = {
          type: 'postgres' as const,
          autoLoadEntities: true,
          synchronize: false,
          migrationsRun: false,
          migrations: options.migrations,
          migrationsTransactionMode: 'each' as const,
          installExtensions: false,
          uuidExtension: 'pgcrypto' as const,
          useUTC: true,
          retryAttempts: 0,
          // Never TypeORM's console loggers: they print statements with their parameter values.
          logger: new TypeOrmLogger(),
        };
        if (config.databaseUrl) {
          return { ...common, url: config.databaseUrl, extra: { max: 10, connectionTimeoutMillis: 10_000 } };
        }
        const templates = config.dataDir === 'memory://' ? EmbeddedPostgres.memoryTemplates : null;
        const templateKey = templates ? migrationsKey(options.migrations) : '';
        const template = templates ? await templates.load(templateKey) : null;
        embedded = await EmbeddedPostgres.start(config.dataDir, template ?? undefined);
        if (templates && !template) saveTemplate = async (migrated) => templates.save(templateKey, await migrated.dump());
        return {
          ...common,
          host: embedded.host,
          port: embedded.port,
          username: 'postgres',
          password: 'postgres',
          database: 'postgres',
          // One PGlite session behind the socket: a second connection would interleave with the
          // first. The timeout makes code that wrongly asks for a second one fail instead of hang.
          // The session outlives its connections, their prepared statements too: a new connection
          // (after the pool closed an idle one) starts without them, as on a server.
          extra: { max: 1, connectionTimeoutMillis: 5_000, onConnect: (client: PoolClient) => client.query('DEALLOCATE ALL') },
        };
      },
      dataSourceFactory: async (dataSourceOptions) => {
        const dataSource = new SandboxDataSource(dataSourceOptions as DataSourceOptions, embedded);
        try {
          await dataSource.initialize();
          await migrate(dataSource, embedded === null);
          // Right after the migrations, before anything else writes: what a fresh database is.
          if (embedded && saveTemplate) await saveTemplate(embedded);
        } catch (error) {
          await dataSource.destroy().catch(() => undefined);
          throw error;
        }
        return dataSource;
      },
    });
  }
}

/** What a migrated database depends on: every migration's code, in order. */
function migrationsKey(migrations: DatabaseModuleOptions['migrations']): string {
  const classes = Array.isArray(migrations) ? migrations : Object.values(migrations);
  const hash = createHash('sha256');
  for (const migration of classes) hash.update(String(migration)).update('\0');
  return hash.digest('hex').slice(0, 32);
}

async function migrate(dataSource: DataSource, sharedServer: boolean): Promise<void> {
  const logger = new Logger('Database');
  if (!sharedServer) {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    if (applied.length > 0) logger.log(`applied ${applied.length} migration(s)`);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
  }
}
