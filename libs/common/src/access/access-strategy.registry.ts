import { Injectable } from '@nestjs/common';
import { AccessStrategy } from './access-strategy';
import type { ClientCertificateGate } from './mutual-tls';

/** Every AccessStrategy by name. Libs register theirs in onModuleInit. */
@Injectable()
export class AccessStrategyRegistry {
  private readonly byName = new Map<string, AccessStrategy>();
  private gate?: ClientCertificateGate;

  /** Strict mode's client-certificate check (contract §16), given by the lib that keeps the sandbox CA. */
  useClientCertificateGate(gate: ClientCertificateGate): void {
    this.gate = gate;
  }

  clientCertificateGate(): ClientCertificateGate {
    if (!this.gate) throw new Error('No client-certificate gate registered');
    return this.gate;
  }

  register(strategy: AccessStrategy): void {
    if (this.byName.has(strategy.name)) throw new Error(`Access strategy ${strategy.name} registered twice`);
    this.byName.set(strategy.name, strategy);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get(name: string): AccessStrategy {
    const strategy = this.byName.get(name);
    if (!strategy) throw new Error(`No access strategy named ${name}`);
    return strategy;
  }
}
