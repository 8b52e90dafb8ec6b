import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ACCESS_POLICY, AccessPolicy } from './access.decorators';
import { AccessStrategyRegistry } from './access-strategy.registry';

/**
 * The guard looks strategies up by name per request, so a misspelt name would be a 500 on the first
 * call: at boot, once every lib has registered its strategies (onModuleInit), every route's policy
 * must name a registered strategy, or the start fails naming the route and the name.
 */
@Injectable()
export class AccessPolicyCheck implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly strategies: AccessStrategyRegistry,
  ) {}

  onApplicationBootstrap(): void {
    const unknown: string[] = [];
    for (const { metatype } of this.discovery.getControllers()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler !== 'function' || !Reflect.hasMetadata(PATH_METADATA, handler)) continue;
        const policy = this.reflector.getAllAndOverride<AccessPolicy | undefined>(ACCESS_POLICY, [handler, metatype]);
        if (!policy || policy.strategy === 'public' || this.strategies.has(policy.strategy)) continue;
        unknown.push(`${route(metatype, handler)} (${metatype.name}.${name}) names the access strategy "${policy.strategy}", which no module registers`);
      }
    }
    if (unknown.length) throw new Error(`Unknown access strategies:\n  ${unknown.join('\n  ')}`);
  }
}

function route(controller: object, handler: object): string {
  const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod] ?? 'GET';
  const paths = [Reflect.getMetadata(PATH_METADATA, controller), Reflect.getMetadata(PATH_METADATA, handler)] as unknown[];
  const path = paths.flatMap((p) => (Array.isArray(p) ? (p[0] as unknown) : p) ?? []).map(String).map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/');
  return `${method} /${path}`;
}
