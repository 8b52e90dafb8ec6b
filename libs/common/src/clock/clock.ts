/**
 * The sandbox's one source of time for every rule (contract §6). An abstract class is its own DI
 * token: services inject `Clock`; entities receive `now` as an argument.
 */
export abstract class Clock {
  abstract now(): Date;
}

/** A hand-moved clock for unit specs. e2e tests move the real sandbox clock through /admin/clock. */
export class TestClock extends Clock {
  constructor(private instant = new Date('2026-11-24T09:00:00Z')) {
    super();
  }

  now(): Date {
    return new Date(this.instant);
  }

  set(instant: Date): void {
    this.instant = new Date(instant);
  }

  advance(ms: number): void {
    this.instant = new Date(this.instant.getTime() + ms);
  }
}
