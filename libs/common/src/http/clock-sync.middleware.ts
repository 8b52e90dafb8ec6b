import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { SandboxClock } from '../clock/sandbox-clock';

/** Brings this instance's copy of the sandbox clock up to date (at most one query a second). */
@Injectable()
export class ClockSyncMiddleware implements NestMiddleware {
  constructor(private readonly clock: SandboxClock) {}

  async use(_req: Request, _res: Response, next: NextFunction): Promise<void> {
    await this.clock.sync();
    next();
  }
}
