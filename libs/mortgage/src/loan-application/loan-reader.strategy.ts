import { applyDecorators, createParamDecorator, ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { Request } from 'express';
import { Access, AccessStrategyRegistry, type AccessStrategy, BearerAuthenticator, DomainError, principalOf, type PrincipalOf, RequestCaller } from '@app/common';
import { EndUserCredentials, PartnerCredentials } from '@app/directory';
import type { LoanApplicationReader } from './loan-application.service';

export const LOAN_READER_STRATEGY = 'loan-reader';
/** Bank §4.6: an end-user token reads only that user's loans, of the partner that obtained it. */
export const LOAN_READ_SCOPE = 'loan.read';

declare module '@app/common' {
  interface Principals {
    'loan-reader': { kind: 'loan-reader'; reader: LoanApplicationReader };
  }
}

/**
 * Who may read a loan application's status: the partner (key or client-credentials token), or the
 * applicant through an enterprise end-user token with loan.read (contract §3).
 */
@Injectable()
export class LoanReaderAccessStrategy implements AccessStrategy, OnModuleInit {
  readonly name = LOAN_READER_STRATEGY;
  private readonly bearer = new BearerAuthenticator<LoanApplicationReader & { missingScope?: true }>(
    async (value, request) => {
      const partner = await this.partners.resolve(value, request);
      if (partner) return { partnerId: partner.id };
      const endUser = await this.endUsers.resolve(value, request);
      if (!endUser) return null;
      const reader = { partnerId: endUser.partnerId, personalNumber: endUser.personalNumber };
      return endUser.scopes.includes(LOAN_READ_SCOPE) ? reader : { ...reader, missingScope: true };
    },
    'Needs Authorization: Bearer <partner api key, client-credentials token, or end-user token>.',
  );

  constructor(
    private readonly partners: PartnerCredentials,
    private readonly endUsers: EndUserCredentials,
    private readonly registry: AccessStrategyRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async authenticate(context: ExecutionContext): Promise<PrincipalOf<'loan-reader'>> {
    const request = context.switchToHttp().getRequest<Request>();
    const reader = await this.bearer.authenticate(request);
    // The journal's caller, also when the token's scope is refused next (contract §14).
    RequestCaller.identify(request, reader.personalNumber === undefined ? { kind: 'partner', id: reader.partnerId } : { kind: 'end_user', id: reader.personalNumber });
    if (reader.missingScope) throw new DomainError('SCOPE_NOT_GRANTED', `The end-user token was not granted ${LOAN_READ_SCOPE}.`);
    return { kind: 'loan-reader', reader: { partnerId: reader.partnerId, personalNumber: reader.personalNumber } };
  }
}

export const LoanReader = () => applyDecorators(Access({ strategy: LOAN_READER_STRATEGY }), ApiBearerAuth('partner'), ApiBearerAuth('enterprise-end-user'));

export const CurrentLoanReader = createParamDecorator(
  (_: unknown, context: ExecutionContext): LoanApplicationReader => principalOf(context, 'loan-reader').reader,
);
