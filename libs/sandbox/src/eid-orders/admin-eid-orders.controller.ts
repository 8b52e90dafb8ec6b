import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ADMIN_PROBLEMS, AdminOnly, API_TAG, ApiInterface, ApiProblems } from '@app/common';
import { ACTIVATION_LIMIT_S, EidOrderService, ORDER_LIFETIME_S } from '@app/eid';
import { OPEN_ORDERS_SHOWN, OpenEidOrdersDto, toOpenEidOrder } from './eid-orders.dto';

@ApiInterface(API_TAG.admin)
@AdminOnly()
@ApiProblems(...ADMIN_PROBLEMS)
@Controller('admin/eid-orders')
export class AdminEidOrdersController {
  constructor(private readonly orders: EidOrderService) {}

  @Get()
  @ApiOperation({
    summary: 'The open eid orders of this sandbox',
    description:
      `INITIATED and PENDING orders, newest first, at most ${OPEN_ORDERS_SHOWN}, as the time rules of contract §4 leave them on the sandbox clock ` +
      `(an order past its ${ACTIVATION_LIMIT_S} s activation limit or ${ORDER_LIFETIME_S} s lifetime is not listed). ` +
      'What the console shows (contract §14); open one on the eid simulator page.',
  })
  @ApiOkResponse({ type: OpenEidOrdersDto })
  async listOpenOrders(): Promise<OpenEidOrdersDto> {
    return { orders: (await this.orders.listOpen(OPEN_ORDERS_SHOWN)).map(toOpenEidOrder) };
  }
}
