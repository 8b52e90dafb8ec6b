import { Injectable, OnModuleInit } from '@nestjs/common';
import { type DueWork, JobRegistry, type SandboxJob } from '@app/common';
import { EidOrderService } from './eid-order.service';

/** Closes orders by the time rules even when nobody polls them (contract §4, §6). */
@Injectable()
export class EidExpiryJob implements SandboxJob, OnModuleInit {
  readonly name = 'eid-order-expiry';

  constructor(
    private readonly registry: JobRegistry,
    private readonly orders: EidOrderService,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  run(): Promise<void> {
    return this.orders.expireStale();
  }

  due(): DueWork {
    return this.orders.dueWork();
  }
}
