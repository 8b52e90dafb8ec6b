/**
 * A scheduled piece of work (eid expiry, transfer execution, decisions, downtime bookkeeping). Its
 * `run` is a one-line call into the owning service, which reads time from the Clock. Libs register
 * jobs with JobRegistry in onModuleInit.
 */
export interface SandboxJob {
  /** Unique; also the lease row's key. */
  readonly name: string;
  run(): Promise<void>;
}
