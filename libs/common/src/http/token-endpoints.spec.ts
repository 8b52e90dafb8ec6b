import { tokenEndpointOf } from './token-endpoints';

describe(tokenEndpointOf.name, () => {
  it('names the two token endpoints by path, as Express routes them (contract §2)', () => {
    expect(tokenEndpointOf('/psd2/auth/1.0/token')).toBe('psd2');
    expect(tokenEndpointOf('/api/auth/1.0/token')).toBe('enterprise');
    expect(tokenEndpointOf('/psd2/auth/1.0/token/')).toBe('psd2');
    expect(tokenEndpointOf('/PSD2/Auth/1.0/Token')).toBe('psd2');
  });

  it('names them under a sandbox prefix too (contract §2, §13)', () => {
    expect(tokenEndpointOf('/sandboxes/default/psd2/auth/1.0/token')).toBe('psd2');
    expect(tokenEndpointOf('/sandboxes/5f0c6c1e-8a39-4c47-9d1e-3b7c1a2f4e10/api/auth/1.0/token')).toBe('enterprise');
  });

  it('names nothing else', () => {
    for (const path of ['/psd2/auth/3.0/authenticate', '/api/auth/1.0/authorize', '/psd2/auth/1.0/token/x', '/x/psd2/auth/1.0/token', '/psd2/auth/1x0/token', '/', '']) {
      expect(tokenEndpointOf(path)).toBeNull();
    }
  });
});
