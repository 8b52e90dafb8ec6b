import { DomainError, ValidationFailed } from '../errors/domain-error';
import { MAX_OBJECT_MEMBERS } from './json-depth';

/**
 * Parameters read from a form body: an object's members, as in a JSON body (contract §2, bounded
 * work). Far above what any token request needs (a form's unknown parameters are ignored, RFC 6749
 * §3.2), and low enough that parsing stays in milliseconds: qs combines a repeated parameter's
 * values one copy at a time, so 10 000 of one name took a quarter of a second, and a 1 MB form of
 * half a million parameters would hold the event loop for seconds.
 */
export const FORM_PARAMETER_LIMIT = MAX_OBJECT_MEMBERS;

/** What body-parser (http-errors) and zlib put on the errors they raise. */
interface ParserError extends Error {
  type?: string;
  status?: number;
  charset?: string;
  encoding?: string;
  code?: string;
}

/**
 * body-parser's refusals in the words of contract §2: 400 VALIDATION_FAILED naming the header at
 * fault. body-parser answers 415 for a charset or a content encoding it cannot read; the contract has
 * 400 for every bad input. Null for anything that is not body-parser's (its 413 and JSON syntax
 * errors are rendered by the filter as they come).
 */
export function bodyParserFailure(cause: unknown): DomainError | null {
  if (!(cause instanceof Error)) return null;
  const error = cause as ParserError;
  switch (error.type) {
    case 'charset.unsupported':
      return new ValidationFailed(`Content-Type: the charset "${error.charset}" is not supported for this body; send it as UTF-8 (charset=utf-8, or no charset).`);
    case 'encoding.unsupported':
      return new ValidationFailed(`Content-Encoding: "${error.encoding}" is not supported; send the body as identity, gzip, deflate or br.`);
    case 'request.size.invalid':
      return new ValidationFailed('Content-Length: the body is not as long as the header says.');
    case 'request.aborted':
      return new ValidationFailed('The request body was not received completely.');
    case 'parameters.too.many':
      // A body within 1 MB is not too large (contract §2: 413 is for over 1 MB); its form is bad input.
      return new ValidationFailed(`The form body has more than ${FORM_PARAMETER_LIMIT} parameters.`);
  }
  // A body that does not decompress by its Content-Encoding: zlib's error (Z_… for gzip and deflate,
  // ERR_… for brotli and zstd), given status 400 by body-parser.
  if (error.status === 400 && typeof error.code === 'string' && /^(Z_|ERR_)/.test(error.code)) {
    return new ValidationFailed('Content-Encoding: the body could not be decompressed as the header says.');
  }
  return null;
}
