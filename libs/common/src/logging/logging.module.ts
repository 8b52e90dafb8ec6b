import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DestinationStream } from 'pino';
import { SandboxConfig } from '../config/sandbox-config';
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

const SECRET_QUERY_PARAMETERS = ['autostarttoken', 'autostart_token'];

/** "/sandbox/eid?autostarttoken=abc" → "/sandbox/eid?autostarttoken=[Redacted]". */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  for (const name of [...params.keys()]) {
    if (SECRET_QUERY_PARAMETERS.includes(name.toLowerCase())) params.set(name, '[Redacted]');
  }
  return `${url.slice(0, queryAt)}?${params.toString()}`;
}

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
                redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
                genReqId: assignRequestId,
                serializers: {
                  req: (req: { url?: string; query?: unknown }) => ({ ...req, url: req.url && redactUrl(req.url), query: undefined }),
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
