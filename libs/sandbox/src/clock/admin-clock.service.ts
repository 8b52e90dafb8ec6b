import { Injectable } from '@nestjs/common';
import { parseInstant, SandboxClock, ValidationFailed } from '@app/common';
import { ClockResponseDto } from './clock.dto';

/** Moving the sandbox clock (contract §6). */
@Injectable()
export class AdminClockService {
  constructor(private readonly clock: SandboxClock) {}

  async read(): Promise<ClockResponseDto> {
    await this.clock.refresh();
    return this.view();
  }

  async set(now: string, frozen: boolean): Promise<ClockResponseDto> {
    const instant = parseInstant(now);
    if (!instant) throw new ValidationFailed(`now is not a valid instant (got ${JSON.stringify(now)})`);
    await this.clock.set(instant, frozen);
    return this.view();
  }

  async advance(seconds: number): Promise<ClockResponseDto> {
    await this.clock.advance(seconds);
    return this.view();
  }

  async reset(): Promise<ClockResponseDto> {
    await this.clock.reset();
    return this.view();
  }

  private view(): ClockResponseDto {
    return { now: this.clock.now().toISOString(), frozen: this.clock.frozen };
  }
}
