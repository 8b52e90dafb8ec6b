import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, ConfigService, registerAs } from '@nestjs/config';
import { SandboxConfig, validateEnvironment } from './sandbox-config';

const SANDBOX = 'sandbox';

/**
 * Validates the environment once, at boot (a bad value stops start-up with a message naming it), and
 * provides the typed SandboxConfig. `env` is process.env in production; tests pass their own.
 */
@Module({})
export class SandboxConfigModule {
  static forRoot(env: Record<string, string | undefined>): DynamicModule {
    return {
      module: SandboxConfigModule,
      global: true,
      imports: [
        ConfigModule.forRoot({
          ignoreEnvFile: true,
          ignoreEnvVars: true,
          skipProcessEnv: true,
          load: [registerAs(SANDBOX, () => ({ config: new SandboxConfig(validateEnvironment(env)) }))],
        }),
      ],
      providers: [
        {
          provide: SandboxConfig,
          inject: [ConfigService],
          useFactory: (configService: ConfigService) => configService.getOrThrow<SandboxConfig>(`${SANDBOX}.config`),
        },
      ],
      exports: [SandboxConfig],
    };
  }
}
