import type { Response } from 'supertest';

/** Asserts a problem body of contract §2 / bank §2.8 and returns it. */
export function expectProblem(res: Response, status: number, code?: string): { reason: { code: string; message: string } } {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({
    type: 'about:blank',
    title: expect.any(String),
    status,
    instance: new URL((res as unknown as { request: { url: string } }).request.url).pathname,
    reason: { code: code ?? expect.stringMatching(/^[A-Z][A-Z0-9_]*$/), message: expect.any(String) },
  });
  return res.body;
}

/** 400 VALIDATION_FAILED whose message names `field` (contract §2). */
export function expectValidationFailed(res: Response, field: string): void {
  const problem = expectProblem(res, 400, 'VALIDATION_FAILED');
  expect(problem.reason.message).toContain(field);
}
