import { Injectable } from '@nestjs/common';
import { toProblem, ValidationFailed, isUuid } from '@app/common';
import { EidSimulatorService } from '../eid-simulator.service';
import type { EidSimulatorPageModel } from './eid-simulator-page';
import type { EidSimulatorPageQueryDto } from './eid-simulator-page.dto';

/**
 * Gathers what the page shows. With `errorsOnPage` (a browser) a failure becomes a message on the
 * page, not an error page; without it the failure is thrown, for the problem+json filter.
 */
@Injectable()
export class EidSimulatorPageService {
  constructor(private readonly simulator: EidSimulatorService) {}

  async load(query: EidSimulatorPageQueryDto, options: { errorsOnPage: boolean }): Promise<EidSimulatorPageModel> {
    const model: EidSimulatorPageModel = { users: [], tokenToOpen: query.autostarttoken?.trim() || undefined };
    try {
      if (query.personal_number !== undefined) {
        const orders = await this.simulator.listPhoneOrders(query.personal_number);
        model.phone = { personalNumber: query.personal_number, orders };
      }
      if (query.operation_id !== undefined) {
        if (!isUuid(query.operation_id)) throw new ValidationFailed(`operation_id must be a UUID (got ${JSON.stringify(query.operation_id)})`);
        model.order = await this.simulator.view(query.operation_id.toLowerCase());
        if (model.order.kind === 'authentication') model.users = await this.simulator.pickableUsers();
      }
    } catch (error) {
      const problem = toProblem(error);
      if (problem.status >= 500 || !options.errorsOnPage) throw error;
      model.error = { status: problem.status, code: problem.code, message: problem.message };
    }
    return model;
  }
}
