import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError, type RequestGate, RequestGates, SandboxClock, SandboxConfig } from '@app/common';
import { activeWindow, formatWindow } from './downtime-calendar';

/**
 * Contract §7: these stay up during planned downtime (and the sandbox lifecycle, §13, and the
 * console `/`, §14: the page a tester moves the clock out of a window from); every bank route goes down.
 */
const ALWAYS_UP = /^\/(health|openapi\.json|openapi\.yaml|docs|admin|sandbox|sandboxes)(\/|$)|^\/$/;

export class PlannedDowntime extends DomainError {
  constructor(end: string, retryAfterSeconds: number) {
    super('PLANNED_DOWNTIME', `Planned downtime until ${end} (bank §8).`, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * Inside a window of the calendar (sandbox clock), when the sandbox's calendar is on, every bank route answers 503 PLANNED_DOWNTIME with
 * Retry-After in whole seconds to the window's end, before any other check (contract §1, §7).
 */
@Injectable()
export class DowntimeGate implements RequestGate, OnModuleInit {
  readonly order = 10;

  constructor(
    private readonly gates: RequestGates,
    private readonly clock: SandboxClock,
    private readonly config: SandboxConfig,
  ) {}

  onModuleInit(): void {
    this.gates.register(this);
  }

  /** Whether the context's sandbox keeps the calendar: its own setting (contract §13), else DOWNTIME_CALENDAR. */
  calendarOn(): boolean {
    return this.clock.downtimeCalendar ?? this.config.downtimeCalendar;
  }

  pass(request: Request): void {
    if (ALWAYS_UP.test(request.path)) return;
    if (!this.calendarOn()) return;
    const now = this.clock.now();
    const window = activeWindow(now);
    if (window) throw new PlannedDowntime(formatWindow(window).end, Math.ceil((window.end.getTime() - now.getTime()) / 1000));
  }
}
