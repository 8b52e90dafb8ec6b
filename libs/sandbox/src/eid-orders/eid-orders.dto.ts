import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INSTANT, PERSONAL_NUMBER } from '@app/common';
import { CALL_INITIATORS, type CallInitiator, EID_CHANNELS, EID_ORDER_KINDS, type EidChannel, type EidOrder, type EidOrderKind, type EidOrderStatus, OPEN_STATUSES } from '@app/eid';

/** How many open orders the listing shows, newest first. */
export const OPEN_ORDERS_SHOWN = 100;

/** An open eid order as the console lists it (contract §14): what it is, for whom, who asks, since when. */
export class OpenEidOrderDto {
  @ApiProperty({ format: 'uuid', description: 'Opens the order on the eid simulator page (`/sandbox/eid?operation_id=…`)' })
  operation_id: string;

  @ApiProperty({ enum: EID_ORDER_KINDS })
  kind: EidOrderKind;

  @ApiProperty({ enum: EID_CHANNELS, description: 'app: started by autostart token or QR code; phone: started during a call' })
  channel: EidChannel;

  @ApiPropertyOptional({ enum: CALL_INITIATORS, description: 'Phone orders: who made the call' })
  call_initiator?: CallInitiator;

  @ApiProperty({ enum: OPEN_STATUSES })
  status: EidOrderStatus;

  @ApiPropertyOptional({ example: 'OUTSTANDING_TRANSACTION', description: 'Present for PENDING orders' })
  hint_code?: string;

  @ApiProperty({ ...PERSONAL_NUMBER, description: 'The person the order is for' })
  personal_number: string;

  @ApiProperty({ example: 'PSDSE-FINA-44059', description: "A TPP's organization id or a partner's name" })
  requested_by: string;

  @ApiProperty({ ...INSTANT, description: 'UTC, on the sandbox clock' })
  started_at: string;
}

export class OpenEidOrdersDto {
  @ApiProperty({ type: [OpenEidOrderDto], description: `Newest first, at most ${OPEN_ORDERS_SHOWN}` })
  orders: OpenEidOrderDto[];
}

export const toOpenEidOrder = (order: EidOrder): OpenEidOrderDto => ({
  operation_id: order.id,
  kind: order.kind,
  channel: order.channel,
  ...(order.callInitiator ? { call_initiator: order.callInitiator } : {}),
  status: order.status,
  ...(order.hintCode ? { hint_code: order.hintCode } : {}),
  personal_number: order.personalNumber,
  requested_by: order.requestedBy,
  started_at: order.startedAt.toISOString(),
});
