import { applyDecorators, createParamDecorator, ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader } from '@nestjs/swagger';
import type { Request } from 'express';
import { Access, AccessStrategyRegistry, type AccessStrategy, isMutualTls, type JournalCaller, principalOf, type PrincipalOf, RequestCaller } from '@app/common';
import { PARTNER_STRATEGY } from '@app/directory';

export const JOURNAL_READER_STRATEGY = 'journal-reader';
/** The strategy of the certificate header (libs/auth), by its registered name. */
const PSD2_CERTIFICATE_STRATEGY = 'psd2-certificate';
const CERTIFICATE_HEADER = 'x-psd2-client-test-cert';

declare module '@app/common' {
  interface Principals {
    'journal-reader': { kind: 'journal-reader'; caller: JournalCaller };
  }
}

/**
 * Who reads its own journal entries (contract §14): a TPP by its test certificate, else a partner by
 * its key. Each is authenticated by its own strategy, which names the caller as the journal records
 * it (RequestCaller), so a reader's entries are exactly those its calls were recorded under.
 */
@Injectable()
export class JournalReaderStrategy implements AccessStrategy, OnModuleInit {
  readonly name = JOURNAL_READER_STRATEGY;

  constructor(private readonly registry: AccessStrategyRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async authenticate(context: ExecutionContext): Promise<PrincipalOf<'journal-reader'>> {
    const request = context.switchToHttp().getRequest<Request>();
    // On the strict-mode TLS port the handshake's certificate names the TPP; a partner sends its key (contract §16).
    const tpp = request.headers[CERTIFICATE_HEADER] !== undefined || (isMutualTls(request) && request.headers.authorization === undefined);
    if (tpp) await this.registry.get(PSD2_CERTIFICATE_STRATEGY).authenticate(context);
    else await this.registry.get(PARTNER_STRATEGY).authenticate(context, { keyOnly: true });
    return { kind: 'journal-reader', caller: RequestCaller.of(request) };
  }
}

/** A self-service journal route: a TPP's test certificate or a partner key; 401 otherwise. */
export const JournalReader = () =>
  applyDecorators(
    Access({ strategy: JOURNAL_READER_STRATEGY }),
    ApiHeader({ name: 'X-PSD2-CLIENT-TEST-CERT', required: false, description: 'A TPP reads its own entries: Base64 of its test certificate' }),
    ApiBearerAuth('partner'),
  );

export const CurrentJournalReader = createParamDecorator(
  (_: unknown, context: ExecutionContext): JournalCaller => principalOf(context, 'journal-reader').caller,
);
