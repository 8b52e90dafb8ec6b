import { Column } from 'typeorm';

/**
 * The sandbox a row belongs to (contract §13), on every entity of sandbox data. SandboxDb fills it
 * on insert and adds it to every condition; it is never selected (entityRows leaves it out too), so
 * no domain object carries it.
 */
export function SandboxIdColumn(): PropertyDecorator {
  return Column({ name: 'sandbox_id', type: 'text', select: false });
}

/** The column's name, for code that builds SQL from entity metadata. */
export const SANDBOX_ID_COLUMN = 'sandbox_id';
