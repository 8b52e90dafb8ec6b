import type { IncomingMessage } from 'node:http';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ValidationFailed } from '../errors/domain-error';
import { bodyParserFailure } from './body-parser-errors';
import { listAtMost } from '../errors/field-list';
import { type JsonShape, MAX_ARRAY_ELEMENTS, MAX_BODY_DEPTH, MAX_OBJECT_MEMBERS, measureJson, placeOf, scanJsonText } from './json-depth';
import { JsonSyntaxError, leadingJson, parseJsonInSlices } from './json-slices';

/**
 * Parameters a query string may carry: an object's members, as in a body. Express's query parser
 * (node:querystring) would drop the ones past 1 000 without a word; they are refused instead.
 */
export const MAX_QUERY_PARAMETERS = MAX_OBJECT_MEMBERS;

/** 400 for a query string with more parameters than MAX_QUERY_PARAMETERS, counted as the parser splits them (`&`), without parsing. */
export function queryShapeProblem(url: string): ValidationFailed | null {
  const start = url.indexOf('?');
  if (start === -1 || start === url.length - 1) return null;
  let parameters = 1;
  for (let at = url.indexOf('&', start + 1); at !== -1; at = url.indexOf('&', at + 1)) {
    if (++parameters > MAX_QUERY_PARAMETERS) return new ValidationFailed(`The query has more than ${MAX_QUERY_PARAMETERS} parameters.`);
  }
  return null;
}

/**
 * 400 for a body past the shape limits of contract §2 (bounded work): nested deeper than
 * MAX_BODY_DEPTH levels (naming the body), or with objects or arrays wider than allowed, each named
 * by its place in dot notation (the first 10, and a count of the rest).
 */
export function bodyShapeProblem(shape: JsonShape): ValidationFailed | null {
  if (shape.tooDeep) return new ValidationFailed(`The request body nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels.`);
  if (shape.breachCount === 0) return null;
  const places = shape.breaches.map(
    ({ path, kind, size }) => `${placeOf(path, 'the body')} has ${size} ${kind} (at most ${kind === 'members' ? MAX_OBJECT_MEMBERS : MAX_ARRAY_ELEMENTS})`,
  );
  return new ValidationFailed(
    `An object may have at most ${MAX_OBJECT_MEMBERS} members and an array at most ${MAX_ARRAY_ELEMENTS} elements: ${listAtMost(places, shape.breachCount)}.`,
  );
}

/** What measuring a request's JSON text before its parse found (measureJsonText): a problem, or null when within the limits. */
const MEASURED = Symbol('body shape measured');
/** A large JSON text left for parseLargeJsonBody. */
const UNPARSED = Symbol('JSON text parsed in slices');
/** A JSON text refused unparsed for its shape, kept for the journal (refusedBodyOf). */
const REFUSED = Symbol('JSON text refused unparsed');
type Measured = IncomingMessage & { [MEASURED]?: ValidationFailed | null; [UNPARSED]?: Buffer; [REFUSED]?: Buffer; body?: unknown };

/** Values of a refused body the journal is given: each writes a byte or more, so its first 4 KB are among them. */
const JOURNAL_VALUES = 4 * 1024 + 1;
/** Of a refused body's text, the journal reads at most this much (a compact text's first 4 KB need 4 KB of it). */
const JOURNAL_TEXT_BYTES = 64 * 1024;

/**
 * What the journal records of a body refused unparsed for its shape (contract §14: the first 4 KB of
 * its redacted JSON): its first values, read from the text without the rest; undefined for any other
 * request, or a text that stops being JSON before them.
 */
export function refusedBodyOf(request: IncomingMessage): unknown {
  const bytes = (request as Measured)[REFUSED];
  return bytes === undefined ? undefined : leadingJson(bytes.toString('utf8', 0, JOURNAL_TEXT_BYTES), JOURNAL_VALUES);
}

/** JSON texts longer than this are parsed a slice at a time (json-slices), not by body-parser's JSON.parse. */
export const SLICED_PARSE_BYTES = 64 * 1024;

/** Thrown from the JSON parser's verify hook to stop its parse; parseLargeJsonBody takes over. */
class ParsedElsewhere extends Error {
  constructor(readonly charset?: string) {
    super('parsed elsewhere');
  }
}

/**
 * The JSON parser's `verify` hook: a text past the shape limits is not parsed at all (the parse is the
 * costly part), and what was found is kept for BodyShapeGuard; a large text within them is left to
 * parseLargeJsonBody. JSON is UTF-8 (RFC 8259 §8.1): another charset body-parser would decode
 * (UTF-16, UTF-32) is refused as the charsets it cannot decode are, unread.
 */
export function measureJsonText(request: IncomingMessage, _response: unknown, bytes: Buffer, encoding: string): void {
  if (encoding !== 'utf-8' && encoding !== 'utf8') throw new ParsedElsewhere(encoding);
  const problem = bodyShapeProblem(scanJsonText(bytes));
  const measured = request as Measured;
  measured[MEASURED] = problem;
  if (problem) {
    measured[REFUSED] = bytes;
    throw new ParsedElsewhere();
  }
  if (bytes.length > SLICED_PARSE_BYTES) {
    measured[UNPARSED] = bytes;
    throw new ParsedElsewhere();
  }
}

/**
 * After the body parsers: a JSON text measureJsonText refused goes on unparsed (no body), to be
 * answered by BodyShapeGuard after the credentials (contract §1 order); a large one is parsed a slice
 * at a time, other requests running between the slices (its syntax errors answered as body-parser's
 * are); any other parser error as it was.
 */
export function parseLargeJsonBody(error: unknown, request: Request, _response: Response, next: NextFunction): void {
  if (!(error instanceof ParsedElsewhere)) return next(error);
  if (error.charset !== undefined) return next(bodyParserFailure(Object.assign(new Error(), { type: 'charset.unsupported', charset: error.charset })));
  const measured = request as Measured;
  const bytes = measured[UNPARSED];
  if (!bytes) return next();
  delete measured[UNPARSED];
  const text = bytes.toString('utf8');
  // As body-parser's decoder does, a byte order mark is no part of the text.
  parseJsonInSlices(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).then(
    (value) => {
      measured.body = value;
      next();
    },
    (failure: unknown) => next(failure instanceof JsonSyntaxError ? new ValidationFailed(`The request body is not valid JSON: ${failure.message}`) : failure),
  );
}

/**
 * Contract §2, bounded work, on every route: a query string with too many parameters, or a body past
 * the shape limits, is 400 VALIDATION_FAILED naming the place (the token endpoints answer it as
 * invalid_request). A global guard registered right after AccessGuard: after the credentials
 * (contract §1 order), before every other check of the input (HeaderInputGuard's Content-Type, the
 * pipes). A JSON text was measured before its parse (measureJsonText) and never parsed when past
 * the limits; a form (at most 1 000 parameters) is measured here, parsed, in one walk without
 * recursion, linear in the body.
 */
@Injectable()
export class BodyShapeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    const measured = (request as Measured)[MEASURED];
    const problem = queryShapeProblem(request.originalUrl ?? request.url) ?? (measured === undefined ? bodyShapeProblem(measureJson(request.body)) : measured);
    if (problem) throw problem;
    return true;
  }
}
