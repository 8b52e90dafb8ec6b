/**
 * Which sandboxes have work due now, for a scheduled pass over every sandbox (contract §13 Time and
 * jobs): one SELECT of `sandbox_id` across all sandboxes (any number of rows per sandbox), each row
 * judged by its own sandbox's time, read as `now` from the `sandbox_now` view. `parameters` are its
 * `$1`, `$2`…; JobsDb runs it, the one door for statements that span sandboxes.
 */
export interface DueWork {
  readonly sql: string;
  readonly parameters?: readonly unknown[];
}

/**
 * A scheduled piece of work (eid expiry, transfer execution, decisions, downtime bookkeeping). Its
 * `run` does one sandbox's due work (the context's, on its clock) and is a one-line call into the
 * owning service, which reads time from the Clock. `due` names the sandboxes a scheduled pass runs
 * it for, so the pass costs a bounded number of statements however many sandboxes exist. Libs
 * register jobs with JobRegistry in onModuleInit.
 */
export interface SandboxJob {
  /** Unique; also the lease rows' key. */
  readonly name: string;
  run(): Promise<void>;
  due(): DueWork;
}

/**
 * Work of the service over every sandbox at once, in set-based statements (journal retention): run
 * once per scheduled pass under its own lease, outside any sandbox context, never by a sandbox's
 * `jobs/run`.
 */
export interface ServiceJob {
  /** Unique; also the lease row's key. */
  readonly name: string;
  run(): Promise<void>;
}
