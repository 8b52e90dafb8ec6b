import { HttpException } from '@nestjs/common';
import { ValidationFailed } from '../errors/domain-error';
import { type RequestWithSandbox, resolveRequestSandbox, sandboxPrefixOf } from './request-sandbox';

const ID = '3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13';
const request = (method: string, url: string) => ({ method, url }) as RequestWithSandbox;

describe('contract §13 Addressing: resolveRequestSandbox', () => {
  it('serves /sandboxes/{id}/<rest> as /<rest> in that sandbox, keeping the query and the original url', () => {
    const req = request('GET', `/sandboxes/${ID.toUpperCase()}/v2/accounts?withBalance=true`);
    expect(resolveRequestSandbox(req)).toBe(ID);
    expect(req.url).toBe('/v2/accounts?withBalance=true');
    expect(req.originalUrl).toBe(`/sandboxes/${ID.toUpperCase()}/v2/accounts?withBalance=true`);
    expect(sandboxPrefixOf(req)).toBe(`/sandboxes/${ID.toUpperCase()}`);
    // Decided once: a second call reads it back.
    expect(resolveRequestSandbox(req)).toBe(ID);
    expect(req.url).toBe('/v2/accounts?withBalance=true');
  });

  it('serves /sandboxes/default/... as the default sandbox, and the root paths too', () => {
    const prefixed = request('GET', '/sandboxes/default/admin/clock');
    expect(resolveRequestSandbox(prefixed)).toBe('default');
    expect(prefixed.url).toBe('/admin/clock');
    const root = request('GET', '/admin/clock');
    expect(resolveRequestSandbox(root)).toBe('default');
    expect(root.url).toBe('/admin/clock');
  });

  it.each([
    ['POST', '/sandboxes'],
    ['GET', '/sandboxes?limit=5'],
    ['GET', `/sandboxes/${ID}`],
    ['GET', `/sandboxes/${ID}/`],
    ['DELETE', `/sandboxes/${ID}`],
    ['POST', `/sandboxes/${ID}/reset`],
    ['GET', '/sandboxes/not-a-uuid'],
  ])('leaves the lifecycle route %s %s at the root', (method, url) => {
    const req = request(method, url);
    expect(resolveRequestSandbox(req)).toBe('default');
    expect(req.url).toBe(url);
  });

  it('refuses a malformed id with 400 naming sandbox_id', () => {
    expect(() => resolveRequestSandbox(request('GET', '/sandboxes/not-a-uuid/v2/accounts'))).toThrow(ValidationFailed);
    expect(() => resolveRequestSandbox(request('GET', '/sandboxes/not-a-uuid/v2/accounts'))).toThrow(/sandbox_id/);
  });

  it('keeps /health and the lifecycle at the root: under a prefix they are an unknown route', () => {
    for (const url of [`/sandboxes/${ID}/health`, `/sandboxes/${ID}/sandboxes`, `/sandboxes/default/sandboxes/${ID}`]) {
      expect(() => resolveRequestSandbox(request('GET', url))).toThrow(HttpException);
    }
  });
});
