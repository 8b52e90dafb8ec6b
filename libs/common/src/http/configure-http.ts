import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication, NestExpressBodyParserOptionsMap } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { Logger } from 'nestjs-pino';
import { SandboxConfig } from '../config/sandbox-config';
import { DomainError } from '../errors/domain-error';
import { assignRequestId } from '../logging/request-id';
import { setupOpenApi } from '../openapi/openapi';
import { FORM_PARAMETER_LIMIT } from './body-parser-errors';
import { answerClientErrors, refuseRequestWithoutHost } from './client-errors';
import { measureJsonText, parseLargeJsonBody } from './input-limits';
import { RequestGates } from './request-gates';
import { type RequestWithSandbox, resolveRequestSandbox, routeToSandbox } from '../sandbox/request-sandbox';
import { SandboxRegistry } from '../sandbox/sandbox-registry';
import { SandboxClock } from '../clock/sandbox-clock';
import { SandboxContext } from '../sandbox/sandbox-context';
import { hintsOf, JournalRecorder } from '../journal/journal-recorder';

/** Bodies over this are 413 PAYLOAD_TOO_LARGE (contract §2). */
export const BODY_LIMIT_BYTES = 1024 * 1024;


export class PayloadTooLarge extends DomainError {
  constructor() {
    super('PAYLOAD_TOO_LARGE', 'The request body is larger than the limit of 1 MB.');
  }
}

/**
 * Everything about the HTTP layer that is not a module: the logger, proxy trust, error answers to
 * requests Node's parser refuses, the request gates, body parsers with the 1 MB limit (any content
 * type: a declared length over the limit is refused before reading; a JSON text past the shape
 * limits of bounded work is not parsed), and the OpenAPI document. Called by main.ts and by the e2e harness, so tests run the same app.
 * The app must be created with `{ bodyParser: false, bufferLogs: true }`.
 */
export function configureHttp(app: INestApplication): void {
  const express = app as NestExpressApplication;
  const config = app.get(SandboxConfig);
  express.useLogger(app.get(Logger));
  express.disable('x-powered-by');
  // No ETag on answers: the bank's document shows none, so neither does the OpenAPI description, and
  // a conditional GET answered 304 is not a behaviour of the bank; hashing every body also costs
  // time on the hot paths (issue 19).
  express.set('etag', false);
  express.set('trust proxy', config.trustProxy);
  answerClientErrors(express.getHttpServer());
  // The request id first: answers given before routing carry X-Request-Id too (contract §14).
  express.use((req: Request, res: Response, next: NextFunction) => {
    assignRequestId(req, res);
    next();
  });
  // Node's own bare 400 for a missing Host is off (answerClientErrors): refused here, as a problem with its id.
  express.use(refuseRequestWithoutHost);
  // Then the request's sandbox: the /sandboxes/{id} prefix routing (contract §13), before any gate.
  const clock = app.get(SandboxClock);
  express.use(routeToSandbox(app.get(SandboxRegistry), (sandboxId) => clock.forget(sandboxId)));
  // The journal notes the arrival and captures the answer of every request from here on (contract §14).
  const journal = app.get(JournalRecorder);
  journal.install(express);
  express.use(journal.begin);
  // The clock, then planned downtime and retired paths, before every other check (contract §1).
  const gates = app.get(RequestGates);
  express.use((req: Request, res: Response, next: NextFunction) => {
    // The sandbox's clock first brought up to date (at most one read a second per instance, contract
    // §6): the gates and everything after read it. The gates may raise hints; this context ends with
    // them (the body parsers lose it). The generation read with it is the one the request began in.
    SandboxContext.run(
      resolveRequestSandbox(req),
      () =>
        clock.sync().then(() => {
          (req as RequestWithSandbox).sandboxGeneration = clock.generation;
          return gates.pass(req, res);
        }),
      req,
      hintsOf(req),
    ).then(() => next(), next);
  });
  express.use((req: Request, _res: Response, next: NextFunction) => {
    const declared = Number(req.headers['content-length']);
    next(Number.isFinite(declared) && declared > BODY_LIMIT_BYTES ? new PayloadTooLarge() : undefined);
  });
  // Any JSON text is read (RFC 8259: `null` and `7` are JSON too); a route that takes an object says
  // so itself (the validation pipe: "The request body must be a JSON object").
  // Bounded work (contract §2): body-parser's verify hook measures a JSON text first (Nest reserves the
  // hook only for its rawBody option, unused here). One past the shape limits is never parsed, and
  // BodyShapeGuard answers it after the credentials; a large one is parsed a slice at a time.
  const json: NestExpressBodyParserOptionsMap['json'] = { limit: BODY_LIMIT_BYTES, type: ['application/json', 'application/*+json'], strict: false, verify: measureJsonText };
  express.useBodyParser('json', json);
  express.useBodyParser('urlencoded', { limit: BODY_LIMIT_BYTES, extended: false, parameterLimit: FORM_PARAMETER_LIMIT });
  express.use(parseLargeJsonBody);
  // From here on every handler runs in the request's sandbox (contract §13) and raises its hints into
  // the request's list (contract §14): entered again, the parsers lost the first context.
  express.use((req: Request, _res: Response, next: NextFunction) => SandboxContext.run(resolveRequestSandbox(req), next, req, hintsOf(req)));
  setupOpenApi(app);
}
