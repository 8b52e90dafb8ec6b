import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DestinationStream } from 'pino';
import { SandboxConfig } from '../config/sandbox-config';
import { redactUrl, serializeError } from './log-redaction';
import { assignRequestId } from './request-id';

/** Secrets that must never reach a log line (DEVELOPERS.md, issue 2). */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-psd2-client-test-cert"]',
  'req.headers.cookie',
  'req.body.refresh_token',
  'req.body.pending_code',
  'req.body.api_key',
  'res.headers["set-cookie"]',
];


export interface LoggingModuleOptions {
  /** Where log lines go; standard output when absent (tests capture them here). */
  destination?: DestinationStream;
}

/** Structured JSON logs (pino) with a request id on every line of a request. */
@Module({})
export class LoggingModule {
  static forRoot(options: LoggingModuleOptions = {}): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [SandboxConfig],
          useFactory: (config: SandboxConfig) => ({
            pinoHttp: [
              {
                level: config.logLevel,
                // Request lines are info; below that level, skip the per-request serialization.
                autoLogging: ['trace', 'debug', 'info'].includes(config.logLevel),
                quietReqLogger: !['trace', 'debug', 'info'].includes(config.logLevel),
                quietResLogger: !['trace', 'debug', 'info'].includes(config.logLevel),
                redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
                genReqId: assignRequestId,
                serializers: {
                  // The query is in the url, redacted by parameter name; its parsed copy is left out.
                  req: (req: { url?: string; query?: unknown }) => ({ ...req, url: req.url && redactUrl(req.url), query: undefined }),
                  err: serializeError,
                },
                customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
                  error || res.statusCode >= 500 ? 'error' : 'info',
              },
              options.destination,
            ] as never,
          }),
        }),
      ],
    };
  }
}
