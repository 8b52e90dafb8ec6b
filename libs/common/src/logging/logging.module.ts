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
          useFactory: (config: SandboxConfig) => {
            // Request lines are info: at warn and above there are none, and the request a line of a
            // request names is only its id, method and url (the logger of every request is made
            // with them, also when it writes nothing: issue 19, the per-request cost).
            const requestLines = ['trace', 'debug', 'info'].includes(config.logLevel);
            return {
              pinoHttp: [
                {
                  level: config.logLevel,
                  autoLogging: requestLines,
                  // Without request lines a request is logged as id, method and the redacted url only
                  // (the serializer below): no req path to redact, and the logger of every request is
                  // made without running the redaction (issue 19).
                  redact: { paths: requestLines ? REDACTED_PATHS : REDACTED_PATHS.filter((path) => !path.startsWith('req.')), censor: '[Redacted]' },
                  genReqId: assignRequestId,
                  serializers: {
                    // The query is in the url, redacted by parameter name; its parsed copy is left out.
                    req: requestLines
                      ? (req: { url?: string; query?: unknown }) => ({ ...req, url: req.url && redactUrl(req.url), query: undefined })
                      : ({ id, method, url }: { id?: unknown; method?: string; url?: string }) => ({ id, method, url: url && redactUrl(url) }),
                    err: serializeError,
                  },
                  customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
                    error || res.statusCode >= 500 ? 'error' : 'info',
                },
                options.destination,
              ] as never,
            };
          },
        }),
      ],
    };
  }
}
