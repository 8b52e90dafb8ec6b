import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EidExpiryJob } from './orders/eid-expiry.job';
import { EidOrderCompletions } from './orders/eid-order-completions';
import { EidOrderEntity } from './orders/eid-order.entity';
import { EidOrderRepository } from './orders/eid-order.repository';
import { EidOrderService } from './orders/eid-order.service';
import { EidSimulatorController } from './simulator/eid-simulator.controller';
import { EidSimulatorService } from './simulator/eid-simulator.service';
import { EidSimulatorPageController } from './simulator/page/eid-simulator-page.controller';
import { EidSimulatorPageService } from './simulator/page/eid-simulator-page.service';

/**
 * The simulated identity service: orders, their time rules and behaviours, dynamic QR strings, the
 * simulator API and the expiry job. Needs an EidUserDirectory provider (libs/directory's, global).
 */
@Module({
  imports: [TypeOrmModule.forFeature([EidOrderEntity])],
  controllers: [EidSimulatorController, EidSimulatorPageController],
  providers: [EidOrderRepository, EidOrderService, EidOrderCompletions, EidSimulatorService, EidSimulatorPageService, EidExpiryJob],
  exports: [EidOrderService, EidOrderCompletions],
})
export class EidModule {}
