import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Other instances see a deletion within this long (contract §13: within 1 s). */
const MAX_STALENESS_MS = 900;
/** Bounded: a flood of ids costs memory up to this many entries. */
const CAPACITY = 10_000;

/**
 * The `sandbox` table itself: which sandboxes exist (contract §13). It is the registry of sandboxes,
 * not a sandbox's data, so it is the one reader of that table outside SandboxDb. `exists` is the
 * one cached lookup per request of the prefix routing: a sandbox found is remembered for under a
 * second (a deletion elsewhere is seen within one); one not found is asked again every time (a
 * sandbox created elsewhere is usable at once). The instance that deletes one calls `forget`.
 */
@Injectable()
export class SandboxRegistry {
  private readonly seenAtMs = new Map<string, number>();

  constructor(private readonly dataSource: DataSource) {}

  async exists(sandboxId: string): Promise<boolean> {
    const seenAt = this.seenAtMs.get(sandboxId);
    if (seenAt !== undefined && Date.now() - seenAt < MAX_STALENESS_MS) return true;
    const checkedAt = Date.now();
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM sandbox WHERE id = $1`, [sandboxId]);
    this.seenAtMs.delete(sandboxId);
    if (rows.length === 0) return false;
    if (this.seenAtMs.size >= CAPACITY) this.seenAtMs.delete(this.seenAtMs.keys().next().value as string);
    this.seenAtMs.set(sandboxId, checkedAt);
    return true;
  }

  /** Drops a deleted sandbox at once on this instance. */
  forget(sandboxId: string): void {
    this.seenAtMs.delete(sandboxId);
  }
}
