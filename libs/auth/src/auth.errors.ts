import { DomainError } from '@app/common';
import type { Scope } from './scopes';

export class RoleNotInCertificate extends DomainError {
  constructor(scope: Scope, role: string) {
    super('ROLE_NOT_IN_CERTIFICATE', `Scope ${scope} needs the role ${role}, which the certificate does not carry.`);
  }
}

export class ScopeNotGranted extends DomainError {
  constructor(scope: Scope) {
    super('SCOPE_NOT_GRANTED', `The access token was not granted the scope ${scope}.`);
  }
}

export class TokenKindNotAllowed extends DomainError {
  constructor(kind: string) {
    super('TOKEN_KIND_NOT_ALLOWED', `A token of the ${kind.replaceAll('_', '-')} flow is not accepted on this route.`);
  }
}

export class UnknownPendingCode extends DomainError {
  constructor() {
    super('NOT_FOUND', 'No authentication with this pending_code belongs to this TPP.');
  }
}

export class PollingTooFast extends DomainError {
  constructor() {
    super('POLLING_TOO_FAST', 'In QR_CODE mode, poll status at most once per second (bank §4.1 rule 2).', { 'Retry-After': '1' });
  }
}
