import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DestinationStream } from 'pino';
import { SandboxConfig } from '../config/sandbox-config';
import { SandboxContext } from '../sandbox/sandbox-context';
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
            // Request lines are info: at warn and above there are none, and a line written during a
            // request names it by id, method and url only, taken from the request's own context
            // when the line is written (pino's mixin). No logger per request then, nor pino-http's
            // middleware (issue 19: a child logger's bindings were serialized for every request,
            // and held until its end, also when it wrote nothing).
            const requestLines = ['trace', 'debug', 'info'].includes(config.logLevel);
            return {
              forRoutes: requestLines ? undefined : [],
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
                  mixin: requestLines ? undefined : requestOfLine,
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

/** The request a line names at warn and above (redacted by the `req` serializer): its context's. */
function requestOfLine(): { req?: { id: unknown; method?: string; url?: string } } {
  const request = SandboxContext.request;
  if (!request) return {};
  // express's full url: a sandbox's prefix included (contract §13).
  const { originalUrl } = request as { originalUrl?: string };
  return { req: { id: request.headers['x-request-id'], method: request.method, url: originalUrl ?? request.url } };
}
