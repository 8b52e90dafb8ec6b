import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { API_TAG, ApiInterface, ApiProblems, CallerIp, Idempotent } from '@app/common';
import { CurrentPartner, type Partner, PartnerAuth } from '@app/directory';
import { EID_ORDER_CONTENDED } from '@app/eid';
import { CollectSigningResponseDto, ParticipantRequestDto, StartPhoneSigningDto, StartSigningResponseDto } from './signing.dto';
import { SigningService } from './signing.service';

const IN_PROGRESS = {
  status: 409,
  code: 'RFA4_SIGNING_IN_PROGRESS' as const,
  description: 'The rules of bank §7.2 / contract §11',
  message: 'An identification or signing for this personal number is already started. Please try again.',
};
const START_REFUSED = {
  ...IN_PROGRESS,
  description:
    'The rules of bank §7.2 / contract §11; or INVALID_STATE: the participant has already signed, or its process takes no signature ' +
    '(a pre-approval not AWAITING_ACCEPTANCE or SIGNING_ONGOING, e.g. EXPIRED; a loan application not AWAITING_SIGNATURE)',
};
const SIGNING_PROBLEMS = [
  { status: 400, description: 'A missing or malformed field, e.g. participant_id not a UUID (VALIDATION_FAILED names it)' },
  { status: 401, description: 'No Authorization: Bearer <partner api key or enterprise client-credentials token>, or an unknown one, or an enterprise token presented with another client certificate or on the other port than it was obtained (error="invalid_token", contract §16); on the strict-mode TLS port also CERTIFICATE_REQUIRED (no client certificate) or CERTIFICATE_INVALID (not issued by the sandbox CA, not yet valid, expired or revoked; contract §16)' },
  { status: 404, description: 'No participant with this id of this partner; on start and start/phone also one of a withdrawn loan application' },
  413,
  // Every route reads or changes the person's eid order (a start replaces an open one).
  EID_ORDER_CONTENDED,
];

/** The partner signing interface (bank §4.4), under {partner_base_url} with and without /partner (contract §1). */
@ApiInterface(API_TAG.signing)
@PartnerAuth()
@ApiProblems(...SIGNING_PROBLEMS)
@Controller(['signing/1.0', 'partner/signing/1.0'])
export class SigningController {
  constructor(private readonly signing: SigningService) {}

  @Post('start')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Start a signing on the same or another device (bank §2.5, §4.4)',
    description: 'Same device: launch eid://autostarttoken=<autostart_token>&redirect=null. Other device: show qr_string as a QR code; fresh ones come from collect.',
  })
  @ApiOkResponse({ type: StartSigningResponseDto })
  @ApiProblems(START_REFUSED)
  start(@Body() dto: ParticipantRequestDto, @CurrentPartner() partner: Partner, @CallerIp() ip: string): Promise<StartSigningResponseDto> {
    return this.signing.start({ kind: 'start', participantId: dto.participant_id, partner, ip });
  }

  @Post('start/phone')
  @HttpCode(204)
  @Idempotent()
  @ApiOperation({
    summary: 'Start a signing during a phone call (bank §4.4)',
    description: 'The app asks the user to confirm being in the call, then to sign. Collect answers INITIATED until the app picks it up.',
  })
  @ApiNoContentResponse()
  @ApiProblems(START_REFUSED)
  async startPhone(@Body() dto: StartPhoneSigningDto, @CurrentPartner() partner: Partner, @CallerIp() ip: string): Promise<void> {
    await this.signing.start({ kind: 'phone', participantId: dto.participant_id, partner, ip, callInitiator: dto.call_initiator });
  }

  @Post('collect')
  @HttpCode(200)
  @ApiOperation({ summary: 'Collect the state of a signing (bank §2.5, §3.2)', description: 'Poll it; COMPLETE carries signed_at and marks the participant signed.' })
  @ApiOkResponse({ type: CollectSigningResponseDto })
  @ApiProblems({ status: 409, code: 'INVALID_STATE', description: 'No signing started for the participant' })
  collect(@Body() dto: ParticipantRequestDto, @CurrentPartner() partner: Partner): Promise<CollectSigningResponseDto> {
    return this.signing.collect(dto.participant_id, partner);
  }

  @Post('cancel')
  @HttpCode(204)
  @ApiOperation({ summary: 'Cancel a signing (bank §4.4)', description: '204 also when nothing is open; 409 while the personal number is blocked (contract §11).' })
  @ApiNoContentResponse()
  @ApiProblems(IN_PROGRESS)
  async cancel(@Body() dto: ParticipantRequestDto, @CurrentPartner() partner: Partner): Promise<void> {
    await this.signing.cancel(dto.participant_id, partner);
  }
}
