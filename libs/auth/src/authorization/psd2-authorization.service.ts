import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hashUuidSecret, type PersonalNumber, PersonalNumberReader, RequestHints, SandboxConfig, ValidationFailed } from '@app/common';
import { UserService } from '@app/directory';
import { type EidOrder, EidOrderService, isOpenOrder, shownHintCode } from '@app/eid';
import { PollingTooFast, UnknownPendingCode } from '../auth.errors';
import type { Psd2Client } from '../certificate/psd2-client';
import { parseScopes, requireRolesFor, type Scope, scopesOfRoles, scopeText } from '../scopes';
import { AuthenticationStatusDto, StartAuthenticationDto, StartAuthenticationResponseDto } from './authorization.dto';
import { type AuthFlow, Psd2AuthorizationEntity } from './psd2-authorization.entity';
import { Psd2AuthorizationRepository } from './psd2-authorization.repository';

export interface StartContext {
  client: Psd2Client;
  psuIpAddress: string;
  /** The X-Sandbox-User header, if any (contract §4). */
  sandboxUser: string | undefined;
}

/** PSD2 authenticate/authorize, status and cancel (bank §2.1–2.3, §3.1, §4.1) on the eid engine. */
@Injectable()
export class Psd2AuthorizationService {
  constructor(
    private readonly authorizations: Psd2AuthorizationRepository,
    private readonly eid: EidOrderService,
    private readonly users: UserService,
    private readonly personalNumbers: PersonalNumberReader,
    private readonly config: SandboxConfig,
  ) {}

  async start(flow: AuthFlow, dto: StartAuthenticationDto, context: StartContext): Promise<StartAuthenticationResponseDto> {
    const scopes = parseScopes(dto.scopes) as Scope[];
    // Refused before validation already (ScopesAskedInBody, contract §1); the use case holds the rule itself too.
    requireRolesFor(scopes, context.client.roles);
    const allowed = scopesOfRoles(context.client.roles);
    if (scopes.length < allowed.length) RequestHints.raise('SCOPE_NARROWER_THAN_CERTIFICATE', { asked: scopeText(scopes), roles: scopeText(allowed) });
    const personalNumber = await this.psu(context.sandboxUser);
    const order = await this.eid.start({
      kind: 'authentication',
      channel: 'app',
      personalNumber,
      requestedBy: context.client.tpp.identifier,
    });
    const pendingCode = randomUUID();
    const authorization = Object.assign(new Psd2AuthorizationEntity(), {
      pendingCodeHash: hashUuidSecret(pendingCode),
      flow,
      tppId: context.client.tpp.id,
      eidOrderId: order.id,
      scopes,
      startMode: dto.start_mode,
      endUserIp: dto.end_user_ip,
      psuIpAddress: context.psuIpAddress,
      createdAt: order.startedAt,
      lastPolledAt: null,
      exchangedAt: null,
    });
    await this.authorizations.insert(authorization);
    return {
      pending_code: pendingCode,
      ...(dto.start_mode === 'AUTO_START' ? { auto_start_token: order.autostartToken } : {}),
    };
  }

  /** Bank §2.3: the state of the eid order as the user's app leaves it; QR_CODE mode at most once a second. */
  async status(pendingCode: string, client: Psd2Client): Promise<AuthenticationStatusDto> {
    const authorization = await this.authorizations.findRef(hashUuidSecret(pendingCode), client.tpp.id);
    if (!authorization) throw new UnknownPendingCode();
    const qrMode = authorization.startMode === 'QR_CODE';
    if (qrMode && !(await this.authorizations.recordQrPoll(authorization.pendingCodeHash))) {
      const elapsedMs = await this.authorizations.msSinceLastPoll(authorization.pendingCodeHash);
      if (elapsedMs !== null) RequestHints.raise('POLLED_TOO_FAST', { elapsedMs });
      throw new PollingTooFast();
    }
    return toStatus(await this.eid.poll(authorization.eidOrderId), qrMode);
  }

  /** Bank §3.1, §7.4 rule 2: an open authentication is cancelled (FAILED CANCELLED); a finished one is 409. */
  async cancel(pendingCode: string, client: Psd2Client): Promise<void> {
    const authorization = await this.authorizations.findRef(hashUuidSecret(pendingCode), client.tpp.id);
    if (!authorization) throw new UnknownPendingCode();
    await this.eid.cancel(authorization.eidOrderId);
  }

  /** X-Sandbox-User, or the default user (contract §4); either must be a sandbox user (else 400). */
  private async psu(header: string | undefined): Promise<string> {
    const personalNumber =
      header === undefined ? (this.config.defaultSandboxUser as PersonalNumber) : this.personalNumbers.read(header, 'X-Sandbox-User');
    if (!(await this.users.find(personalNumber))) {
      throw new ValidationFailed(
        header === undefined
          ? `X-Sandbox-User is missing and the default user ${personalNumber} (DEFAULT_SANDBOX_USER) does not exist; seed it or name a user`
          : `X-Sandbox-User ${personalNumber} is not a sandbox user`,
      );
    }
    return personalNumber;
  }
}

/** The eid order in the words of bank §2.3: INITIATED and PENDING are PENDING. */
function toStatus(order: EidOrder, qrMode: boolean): AuthenticationStatusDto {
  const status = order.status === 'COMPLETE' ? 'COMPLETE' : isOpenOrder(order) ? 'PENDING' : 'FAILED';
  const hintCode = shownHintCode(order);
  return {
    eid_auth_status: status,
    ...(hintCode ? { hint_code: hintCode } : {}),
    ...(qrMode && status === 'PENDING' && order.qrString ? { qr_code: order.qrString } : {}),
  };
}
