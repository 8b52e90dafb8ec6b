import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INSTANT, PERSONAL_NUMBER, PERSONAL_NUMBER_INPUT } from '@app/common';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { FAILED_HINT_CODES, type FailedHintCode, PENDING_HINT_CODES, type PendingHintCode } from '../eid-catalogue';
import {
  CALL_INITIATORS,
  type CallInitiator,
  EID_CHANNELS,
  EID_ORDER_KINDS,
  EID_ORDER_STATUSES,
  type EidChannel,
  type EidOrderKind,
  type EidOrderStatus,
} from '../orders/eid-order-status';

/** POST /sandbox/eid/operations/{id}/open: who authenticates, optionally. */
export class OpenOperationDto {
  @ApiPropertyOptional({
    ...PERSONAL_NUMBER_INPUT,
    description: 'Authentication: the user who authenticates (default: the user named at start). Signing: must be the order\'s subject.',
  })
  @IsOptional()
  @IsString()
  personal_number?: string;
}

/** POST /sandbox/eid/open: the order by its token, and optionally who authenticates. */
export class OpenOrderDto extends OpenOperationDto {
  @ApiProperty({ description: 'The autostart token, or a QR string at most 5 s old', example: 'eid.6c1e…' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  token: string;
}

export class OpenedOrderDto {
  @ApiProperty({ format: 'uuid' })
  operation_id: string;

  @ApiProperty({ enum: EID_ORDER_KINDS })
  kind: EidOrderKind;

  @ApiProperty({ enum: EID_ORDER_STATUSES, example: 'PENDING' })
  status: EidOrderStatus;
}

export class FailOrderDto {
  @ApiProperty({ enum: FAILED_HINT_CODES, example: 'USER_CANCEL' })
  @IsIn(FAILED_HINT_CODES, { message: `hint_code must be a FAILED hint of bank §3.2: ${FAILED_HINT_CODES.join(', ')}` })
  hint_code: FailedHintCode;
}

export class HintOrderDto {
  @ApiProperty({ enum: PENDING_HINT_CODES, example: 'STARTED' })
  @IsIn(PENDING_HINT_CODES, { message: `hint_code must be a PENDING hint of bank §3.2: ${PENDING_HINT_CODES.join(', ')}` })
  hint_code: PendingHintCode;
}

export class ListOperationsQueryDto {
  @ApiProperty({ ...PERSONAL_NUMBER_INPUT, description: 'The person whose open phone orders to list' })
  @IsString()
  personal_number: string;
}

/** An order in a listing: what it is, its status and since when. */
export class OperationDto extends OpenedOrderDto {
  @ApiPropertyOptional({ example: 'USER_SIGN', description: 'Present for PENDING and FAILED orders (omitted while a phone order is INITIATED)' })
  hint_code?: string;

  @ApiProperty({ ...INSTANT, example: '2026-11-24T09:00:00.000Z', description: 'UTC' })
  started_at: string;
}

export class OperationsDto {
  @ApiProperty({ type: [OperationDto] })
  operations: OperationDto[];
}

/** One order as the simulator page shows it (contract §4: who asks, what kind, since when). */
export class OperationViewDto extends OperationDto {
  @ApiProperty({ enum: EID_CHANNELS, description: 'app: started by autostart token or QR code; phone: started during a call' })
  channel: EidChannel;

  @ApiPropertyOptional({ enum: CALL_INITIATORS, description: 'Phone orders: who made the call' })
  call_initiator?: CallInitiator;

  @ApiProperty({ description: 'Who asks: the TPP\'s organizationIdentifier or the partner\'s name', example: 'PSDSE-FINA-12345' })
  requested_by: string;

  @ApiProperty({ ...PERSONAL_NUMBER, description: 'Who authenticates or signs' })
  personal_number: string;

  @ApiProperty({ type: String, nullable: true, example: 'Tolvan Tolvansson' })
  user_name: string | null;

  @ApiPropertyOptional({ ...INSTANT, description: 'When the order reached its final state (UTC)' })
  finished_at?: string;

  @ApiProperty({ example: 12, description: 'Whole seconds since start, on the sandbox clock' })
  seconds_since_start: number;

  @ApiProperty({ example: 168, description: 'Seconds until the 3-minute limit (0 once the order is finished)' })
  seconds_left: number;

  @ApiProperty({ example: 30, description: 'The app must open the order within this many seconds of start' })
  activation_limit_seconds: number;

  @ApiPropertyOptional({ example: 'eid.6c1e….12.…', description: 'The current dynamic QR string (open app orders)' })
  qr_string?: string;
}
