import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EID_ORDER_STATUSES, type EidOrderStatus } from '@app/eid';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsUUID } from 'class-validator';

/** POST /psd2/savings/3.0/transfers/signing/start (contract §10). */
export class StartTransferSigningDto {
  @ApiProperty({ type: [String], format: 'uuid', description: 'reference_ids of transfers and recurring transfers awaiting signature' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ArrayUnique()
  @IsUUID('all', { each: true, message: 'reference_ids must be UUIDs' })
  reference_ids: string[];
}

export class TransferSigningStartedDto {
  @ApiProperty({ format: 'uuid' })
  signing_id: string;

  @ApiProperty({ format: 'uuid', description: 'Launch eid://autostarttoken=<autostart_token>&redirect=null' })
  autostart_token: string;
}

export class CollectTransferSigningDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'signing_id must be a UUID' })
  signing_id: string;
}

export class TransferSigningStatusDto {
  @ApiProperty({ enum: EID_ORDER_STATUSES, description: 'Bank §3.2' })
  status: EidOrderStatus;

  @ApiPropertyOptional({ description: 'For PENDING and FAILED (bank §3.2)', example: 'OUTSTANDING_TRANSACTION' })
  hint_code?: string;
}
