import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';

/**
 * A check every request passes before anything else — before body parsing, routing and credentials
 * (contract §1: planned downtime, then retired paths), in the request's sandbox with its clock
 * already brought up to date. It may refuse (throw a DomainError), set response headers, or rewrite
 * `request.url` (an alias of a successor path).
 */
export interface RequestGate {
  /** Gates run in ascending order. */
  readonly order: number;
  pass(request: Request, response: Response): void | Promise<void>;
}

@Injectable()
export class RequestGates {
  private gates: RequestGate[] = [];

  register(gate: RequestGate): void {
    this.gates = [...this.gates, gate].sort((a, b) => a.order - b.order);
  }

  async pass(request: Request, response: Response): Promise<void> {
    for (const gate of this.gates) await gate.pass(request, response);
  }
}
