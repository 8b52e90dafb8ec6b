import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DestinationStream } from 'pino';
import type { Options as PinoHttpOptions } from 'pino-http';
import { SandboxConfig } from '../config/sandbox-config';
import { SandboxContext } from '../sandbox/sandbox-context';
import { loggedRequest, loggedRequestName, loggedResponse, redactLogFields, redactLogLine, serializeError } from './log-redaction';
import { assignRequestId } from './request-id';

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
            const requestLines = REQUEST_LINE_LEVELS.includes(config.logLevel);
            return { forRoutes: requestLines ? undefined : [], pinoHttp: [pinoHttpOptions(config.logLevel), options.destination] as never };
          },
        }),
      ],
    };
  }
}

/** Levels at which every request has its line (request lines are info). */
const REQUEST_LINE_LEVELS = ['trace', 'debug', 'info'];

/**
 * pino-http's options at a log level. Request lines are info: at warn and above there are none, and
 * a line written during a request names it by id, method and url only, taken from the request's own
 * context when the line is written (pino's mixin). No logger per request then, nor pino-http's
 * middleware (issue 19: a child logger's bindings were serialized for every request, and held until
 * its end, also when it wrote nothing).
 */
export function pinoHttpOptions(logLevel: string): PinoHttpOptions {
  const requestLines = REQUEST_LINE_LEVELS.includes(logLevel);
  return {
    level: logLevel,
    autoLogging: requestLines,
    genReqId: assignRequestId,
    // Secrets never reach a line (contract §14): the one redaction of the journal, by the
    // serializers of what a line names (a request, an answer, an error), over the other fields a
    // log call gives, and, last, over every line's text as it is written (the string rule).
    serializers: {
      // Without request lines a request is logged as id, method and the redacted url only: the
      // logger of every request is made without the header rule (issue 19).
      req: requestLines ? loggedRequest : loggedRequestName,
      res: loggedResponse,
      err: serializeError,
    },
    formatters: { log: redactLogFields },
    hooks: { streamWrite: redactLogLine },
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    mixin: requestLines ? undefined : requestOfLine,
  };
}

/** The request a line names at warn and above (redacted by the `req` serializer): its context's. */
function requestOfLine(): { req?: { id: unknown; method?: string; url?: string } } {
  const request = SandboxContext.request;
  if (!request) return {};
  // express's full url: a sandbox's prefix included (contract §13).
  const { originalUrl } = request as { originalUrl?: string };
  return { req: { id: request.headers['x-request-id'], method: request.method, url: originalUrl ?? request.url } };
}
