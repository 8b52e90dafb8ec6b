import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces } from '@nestjs/swagger';
import { API_TAG, ApiInterface, ApiProblems, NoStore, Public, UuidPipe } from '@app/common';
import { EID_ORDER_CONTENDED } from '../eid.errors';
import { EidSimulatorService } from './eid-simulator.service';
import {
  FailOrderDto,
  HintOrderDto,
  ListOperationsQueryDto,
  OpenedOrderDto,
  OpenOperationDto,
  OpenOrderDto,
  OperationsDto,
  OperationViewDto,
} from './simulator.dto';

const OPERATION = new UuidPipe('operation_id');
const OPERATION_PARAM = { name: 'operation_id', format: 'uuid', description: 'The order, from open or the listing' };
const NOT_OPEN = { status: 409, code: 'INVALID_STATE' as const, description: 'The order is no longer open' };

/**
 * The eid simulator API (contract §4): what the identity app would do. No key: holding the token is
 * the right to act.
 */
@ApiInterface(API_TAG.sandbox)
@Public()
@Controller('sandbox/eid')
export class EidSimulatorController {
  constructor(private readonly simulator: EidSimulatorService) {}

  @Post('open')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Open an order in the app, by autostart token or QR string',
    description:
      'The app opens (hint USER_SIGN). A QR string is accepted while its t is within 5 s of the sandbox clock. ' +
      'For an authentication, personal_number chooses who authenticates; for a signing it must be the subject (else 403).',
  })
  @ApiOkResponse({ type: OpenedOrderDto })
  @ApiProblems(400, { status: 403, code: 'FORBIDDEN', description: 'Not the signing\'s subject' }, 404, NOT_OPEN, 413, EID_ORDER_CONTENDED)
  async openOrder(@Body() dto: OpenOrderDto): Promise<OpenedOrderDto> {
    const order = await this.simulator.openByToken(dto.token, dto.personal_number);
    return { operation_id: order.id, kind: order.kind, status: order.status };
  }

  @Get('operations')
  @ApiOperation({ summary: 'The open phone orders of a person', description: 'What the app on that person\'s phone would show.' })
  @ApiOkResponse({ type: OperationsDto })
  @ApiProblems(400)
  async listOperations(@Query() query: ListOperationsQueryDto): Promise<OperationsDto> {
    return { operations: await this.simulator.listPhoneOrders(query.personal_number) };
  }

  @Get('operations/:operation_id')
  @ApiOperation({
    summary: 'One order as the app shows it: who asks, what kind, since when, its status',
    description: 'Reading applies the time rules of contract §4 (as the expiry job would) and nothing else.',
  })
  @ApiParam(OPERATION_PARAM)
  @ApiOkResponse({ type: OperationViewDto })
  @ApiProblems(400, 404, EID_ORDER_CONTENDED)
  viewOperation(@Param('operation_id', OPERATION) id: string): Promise<OperationViewDto> {
    return this.simulator.view(id);
  }

  @Get('operations/:operation_id/qr.svg')
  @NoStore()
  @ApiOperation({
    summary: 'The order\'s current dynamic QR code as an SVG image',
    description: 'The QR string changes every second (contract §4); fetch it again each second while the order is open.',
  })
  @ApiParam(OPERATION_PARAM)
  @ApiProduces('image/svg+xml')
  @ApiOkResponse({ description: 'An SVG image of the current QR string', content: { 'image/svg+xml': { schema: { type: 'string' } } } })
  @ApiProblems(400, 404, { ...NOT_OPEN, description: 'A phone order (no QR code), or no longer open' }, EID_ORDER_CONTENDED)
  async qrImage(@Param('operation_id', OPERATION) id: string, @Res({ passthrough: true }) res: Response): Promise<string> {
    const svg = await this.simulator.qrImage(id);
    res.type('image/svg+xml');
    return svg;
  }

  @Post('operations/:operation_id/open')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Open an order in the app (pick up a phone order; choose who authenticates)',
    description:
      'The app opens (hint USER_SIGN; USER_CALL_CONFIRM for a phone order whose call is not confirmed). ' +
      'For an authentication, personal_number chooses who authenticates; for a signing it must be the subject (else 403).',
  })
  @ApiParam(OPERATION_PARAM)
  @ApiBody({ type: OpenOperationDto, required: false })
  @ApiNoContentResponse()
  @ApiProblems(400, { status: 403, code: 'FORBIDDEN', description: 'Not the signing\'s subject' }, 404, NOT_OPEN, 413, EID_ORDER_CONTENDED)
  async openOperation(@Param('operation_id', OPERATION) id: string, @Body() dto: OpenOperationDto): Promise<void> {
    await this.simulator.open(id, dto?.personal_number);
  }

  @Post('operations/:operation_id/complete')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Approve: the user identifies or signs',
    description: 'The open order becomes COMPLETE, as if the user approved it in the eid app (contract §4).',
  })
  @ApiParam(OPERATION_PARAM)
  @ApiNoContentResponse()
  @ApiProblems(400, 404, NOT_OPEN, EID_ORDER_CONTENDED)
  async completeOperation(@Param('operation_id', OPERATION) id: string): Promise<void> {
    await this.simulator.complete(id);
  }

  @Post('operations/:operation_id/fail')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Fail the order with a FAILED hint code of bank §3.2',
    description: 'The open order becomes FAILED with the given hint code, as the eid would end it (contract §4).',
  })
  @ApiParam(OPERATION_PARAM)
  @ApiNoContentResponse()
  @ApiProblems(400, 404, NOT_OPEN, 413, EID_ORDER_CONTENDED)
  async failOperation(@Param('operation_id', OPERATION) id: string, @Body() dto: FailOrderDto): Promise<void> {
    await this.simulator.fail(id, dto.hint_code);
  }

  @Post('operations/:operation_id/hint')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Set the PENDING hint code of an open order',
    description: 'Any PENDING hint of bank §3.2; a hint other than OUTSTANDING_TRANSACTION and NO_CLIENT means the app is open.',
  })
  @ApiParam(OPERATION_PARAM)
  @ApiNoContentResponse()
  @ApiProblems(400, 404, NOT_OPEN, 413, EID_ORDER_CONTENDED)
  async hintOperation(@Param('operation_id', OPERATION) id: string, @Body() dto: HintOrderDto): Promise<void> {
    await this.simulator.hint(id, dto.hint_code);
  }

  @Post('operations/:operation_id/confirm-call')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Confirm being in the call (phone orders)',
    description: 'For an order started with start/phone: the user confirms being in the call with the partner (contract §4, §11).',
  })
  @ApiParam(OPERATION_PARAM)
  @ApiNoContentResponse()
  @ApiProblems(400, 404, { ...NOT_OPEN, description: 'Not a phone order, or no longer open' }, EID_ORDER_CONTENDED)
  async confirmCall(@Param('operation_id', OPERATION) id: string): Promise<void> {
    await this.simulator.confirmCall(id);
  }

  @Post('operations/:operation_id/decline-call')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Decline the call: FAILED USER_DECLINED_CALL (phone orders)',
    description: 'For an order started with start/phone: the user says they are not in a call, and the order fails (contract §4, §11).',
  })
  @ApiParam(OPERATION_PARAM)
  @ApiNoContentResponse()
  @ApiProblems(400, 404, { ...NOT_OPEN, description: 'Not a phone order, or no longer open' }, EID_ORDER_CONTENDED)
  async declineCall(@Param('operation_id', OPERATION) id: string): Promise<void> {
    await this.simulator.declineCall(id);
  }
}
