import { applyDecorators, Header } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { NO_STORE_EXTENSION } from '../openapi/openapi-finish';

/**
 * `Cache-Control: no-store` on every answer of a route whose answer shows live state (a page, a QR
 * code that changes each second), and documented on its 2xx responses: describeResponseHeaders turns
 * the mark into the one Cache-Control header definition.
 */
export const NoStore = (): MethodDecorator => applyDecorators(Header('Cache-Control', 'no-store'), ApiExtension(NO_STORE_EXTENSION, true));
