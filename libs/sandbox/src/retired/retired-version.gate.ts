import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, formatStockholmOffset, type RequestGate, RequestGates, RequestHints, SandboxClock, sandboxPrefixOf } from '@app/common';
import { matchRetired } from './retired-versions';

export class VersionWithdrawn extends DomainError {
  constructor(successor: string) {
    super('VERSION_WITHDRAWN', `This version has been withdrawn; use ${successor} (bank §7.4 rule 3, §9).`);
  }
}

export class RedirectFlowNotSimulated extends DomainError {
  constructor(successor: string) {
    super('NOT_SIMULATED', `The redirect flow is not simulated; use ${successor}.`);
  }
}

/**
 * Retired paths (contract §12): past their end 410 VERSION_WITHDRAWN naming the successor; before it
 * the row's behaviour (an alias of the successor, or 501 for the redirect flows) with Deprecation
 * (RFC 9745), Sunset (RFC 8594) and a successor-version Link.
 */
@Injectable()
export class RetiredVersionGate implements RequestGate, OnModuleInit {
  readonly order = 20;

  constructor(
    private readonly gates: RequestGates,
    private readonly clock: SandboxClock,
  ) {}

  onModuleInit(): void {
    this.gates.register(this);
  }

  pass(request: Request, response: Response): void {
    const match = matchRetired(request.method, request.url);
    if (!match) return;
    const { row, successorUrl } = match;
    // Under a sandbox's prefix the successor is that sandbox's (contract §13 Addressing).
    response.setHeader('Link', `<${sandboxPrefixOf(request) ?? ''}${successorUrl.split('?')[0]}>; rel="successor-version"`);
    if (row.end && this.clock.now() >= row.end) throw new VersionWithdrawn(row.successorName);
    response.setHeader('Deprecation', `@${Math.floor(row.deprecatedAt.getTime() / 1000)}`);
    if (row.end) response.setHeader('Sunset', row.end.toUTCString());
    RequestHints.raise('DEPRECATED_PATH', { successor: row.successorName, end: row.end ? formatStockholmOffset(row.end) : null });
    if (row.before === 'not_simulated') throw new RedirectFlowNotSimulated(row.successorName);
    // An alias: the successor's route answers, as if called directly.
    request.url = successorUrl;
  }
}
