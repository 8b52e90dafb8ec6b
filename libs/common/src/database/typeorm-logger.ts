import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLoggerInterface } from 'typeorm';
import { queryName } from '../logging/log-redaction';

/**
 * TypeORM's log lines in the service's structured log, naming statements without their text or
 * parameter values (issue 13: a parameter may be a key's hash or submitted data). TypeORM's own
 * loggers print both, to the console.
 */
export class TypeOrmLogger implements TypeOrmLoggerInterface {
  private readonly logger = new Logger('Database');

  /** Every statement: far too many to log, and their parameters are not ours to print. */
  logQuery(): void {}

  /** The error reaches the caller; one nobody handles is logged as a 500. Here only at debug level. */
  logQueryError(error: string | Error, query: string): void {
    this.logger.debug({ query: queryName(query), ...(error instanceof Error ? { err: error } : {}) }, 'query failed');
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ query: queryName(query), duration_ms: time }, 'slow query');
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    const text = typeof message === 'string' ? message : String(message);
    if (level === 'warn') this.logger.warn(text);
    else this.logger.log(text);
  }
}
