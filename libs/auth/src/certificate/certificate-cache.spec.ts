import { issueTestCertificate } from '@app/directory';
import { CertificateCache } from './certificate-cache';

// Issue 19: parsed certificates are remembered per header value; the last one is compared first.
// Whatever the order of the calls, each header value reads as its own certificate.

const NOW = new Date('2026-01-01T00:00:00Z');

async function header(organizationId: string): Promise<string> {
  return (await issueTestCertificate({ roles: ['PSP_AI'], organizationId, now: NOW })).toString('base64');
}

describe(CertificateCache.name, () => {
  it('answers each header value with its own certificate, whether it was the last one read or not, and for a copy of the text', async () => {
    const [a, b] = [await header('PSDSE-TEST-00000001'), await header('PSDSE-TEST-00000002')];
    const cache = new CertificateCache();
    const order = [a, a, b, a, b, b, a];
    expect(order.map((value) => cache.read(value).organizationId)).toEqual(order.map((value) => (value === a ? 'PSDSE-TEST-00000001' : 'PSDSE-TEST-00000002')));
    // Another string object with the same text (as every request's header is) is the same certificate.
    expect(cache.read(`${a.slice(0, 10)}${a.slice(10)}`)).toBe(cache.read(a));
  });

  it('refuses an unreadable value every time, and reads the last good one after it', async () => {
    const a = await header('PSDSE-TEST-00000003');
    const cache = new CertificateCache();
    cache.read(a);
    expect(() => cache.read('not a certificate')).toThrow();
    expect(() => cache.read('not a certificate')).toThrow();
    expect(cache.read(a).organizationId).toBe('PSDSE-TEST-00000003');
  });
});
