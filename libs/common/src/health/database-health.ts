import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '../errors/domain-error';

@Injectable()
export class DatabaseHealth {
  constructor(private readonly dataSource: DataSource) {}

  async check(): Promise<{ status: 'ok' }> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new DomainError('DATABASE_UNAVAILABLE', 'The database does not answer.');
    }
    return { status: 'ok' };
  }
}
