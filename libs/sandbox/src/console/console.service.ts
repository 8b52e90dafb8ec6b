import { Injectable } from '@nestjs/common';
import { DOCS_PATH, OPENAPI_JSON_PATH, SandboxClock, SandboxContext, SandboxRegistry, UnknownSandbox } from '@app/common';
import type { ConsoleDto } from './console.dto';

/** What the console shows before any key is typed in: the sandbox, its clock and where to go. */
@Injectable()
export class ConsoleService {
  constructor(
    private readonly registry: SandboxRegistry,
    private readonly clock: SandboxClock,
  ) {}

  /** `prefix`: the sandbox's `/sandboxes/{id}` when the page was asked under it, else '' (contract §13). */
  async describe(prefix: string): Promise<ConsoleDto> {
    const sandboxId = SandboxContext.sandboxId;
    const sandbox = await this.registry.find(sandboxId);
    // Deleted while this request was on its way (the routing had seen it).
    if (!sandbox) throw new UnknownSandbox(sandboxId);
    return {
      sandbox_id: sandbox.id,
      name: sandbox.name,
      clock: { now: this.clock.now().toISOString(), frozen: this.clock.frozen },
      links: {
        // Each sandbox has its own description, whose server is its prefix (contract §13 Addressing).
        docs: `${prefix}${DOCS_PATH}`,
        openapi: `${prefix}${OPENAPI_JSON_PATH}`,
        eid_simulator: `${prefix}/sandbox/eid`,
        maintenance_windows: `${prefix}/sandbox/maintenance-windows`,
        requests: `${prefix}/sandbox/requests`,
        admin_requests: `${prefix}/admin/requests`,
      },
    };
  }
}
