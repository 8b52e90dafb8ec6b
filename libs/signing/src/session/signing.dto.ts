import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { INSTANT } from '@app/common';
import { CALL_INITIATORS, EID_ORDER_STATUSES, type CallInitiator, type EidOrderStatus } from '@app/eid';

/** Bank §2.5 StartSigningRequest, CollectSigningRequest, CancelSigningRequest. */
export class ParticipantRequestDto {
  @ApiProperty({ format: 'uuid', description: 'signing_process.participants[n].id of the pre-approval or loan-application status' })
  @IsUUID('all', { message: 'participant_id must be a UUID' })
  participant_id: string;
}

/** Bank §2.5 StartPhoneSigningRequest. */
export class StartPhoneSigningDto extends ParticipantRequestDto {
  @ApiProperty({ enum: CALL_INITIATORS, description: 'RP: the partner placed the call; USER: the customer did' })
  @IsIn(CALL_INITIATORS, { message: 'call_initiator must be RP or USER' })
  call_initiator: CallInitiator;
}

/** Bank §2.5 StartSigningResponse. */
export class StartSigningResponseDto {
  @ApiProperty({ format: 'uuid', description: 'Launch eid://autostarttoken=<autostart_token>&redirect=null' })
  autostart_token: string;

  @ApiProperty({ example: 'eid.6c1e9f0a-2b7d-4c3e-8f5a-1d2b3c4d5e6f.0.4f2a9c…', description: 'Show as a QR code; a fresh one comes from collect' })
  qr_string: string;
}

/** Bank §2.5 CollectSigningResponse. */
export class CollectSigningResponseDto {
  @ApiProperty({ enum: EID_ORDER_STATUSES, description: 'Bank §3.2' })
  status: EidOrderStatus;

  @ApiPropertyOptional({ description: 'For PENDING and FAILED', example: 'OUTSTANDING_TRANSACTION' })
  hint_code?: string;

  @ApiPropertyOptional({ example: 'eid.6c1e9f0a-2b7d-4c3e-8f5a-1d2b3c4d5e6f.3.9b1d2e…', description: 'While the signing is outstanding (not for phone signings)' })
  qr_string?: string;

  @ApiPropertyOptional({ ...INSTANT, example: '2026-11-24T10:00:05+01:00', description: 'Only when COMPLETE; Stockholm offset, to the second' })
  signed_at?: string;
}
