import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INSTANT, PERSONAL_NUMBER, PERSONAL_NUMBER_INPUT } from '@app/common';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { FAILED_HINT_CODES, type FailedHintCode, PENDING_HINT_CODES, type PendingHintCode } from '../eid-catalogue';
import { EID_ORDER_KINDS, EID_ORDER_STATUSES, type EidOrderKind, type EidOrderStatus } from '../orders/eid-order-status';

export class OpenOrderDto {
  @ApiProperty({ description: 'The autostart token, or a QR string at most 5 s old', example: 'eid.6c1e…' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  token: string;

  @ApiPropertyOptional({
    ...PERSONAL_NUMBER_INPUT,
    description: 'Authentication: the user who authenticates (default: the user named at start). Signing: must be the order\'s subject.',
  })
  @IsOptional()
  @IsString()
  personal_number?: string;
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

export class OperationDto {
  @ApiProperty({ format: 'uuid' })
  operation_id: string;

  @ApiProperty({ enum: EID_ORDER_KINDS })
  kind: EidOrderKind;

  @ApiProperty({ enum: EID_ORDER_STATUSES })
  status: EidOrderStatus;

  @ApiPropertyOptional({ description: 'Omitted while a phone order is INITIATED' })
  hint_code?: string;

  @ApiProperty({ ...INSTANT, example: '2026-11-24T09:00:00.000Z', description: 'UTC' })
  started_at: string;
}

export class OperationsDto {
  @ApiProperty({ type: [OperationDto] })
  operations: OperationDto[];
}
