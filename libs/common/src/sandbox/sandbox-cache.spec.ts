import { SandboxCache } from './sandbox-cache';
import { SandboxContext } from './sandbox-context';

describe(SandboxCache.name, () => {
  const generations = { generation: '1' };
  const cache = new SandboxCache<string>(generations, 2);

  it('keeps the same key apart per sandbox (contract §13: a partner key may exist in two sandboxes)', () => {
    SandboxContext.run('a', () => cache.remember('hash', 'partner of a'));
    SandboxContext.run('b', () => cache.remember('hash', 'partner of b'));
    expect(SandboxContext.run('a', () => cache.lookup('hash'))).toBe('partner of a');
    expect(SandboxContext.run('b', () => cache.lookup('hash'))).toBe('partner of b');
    expect(SandboxContext.run('c', () => cache.lookup('hash'))).toBeUndefined();
    expect([...cache.keys()]).toEqual(['hash']);
  });

  it('forgets what an older generation of a sandbox remembered (a reset or delete bumps it)', () => {
    generations.generation = '2';
    expect(SandboxContext.run('a', () => cache.lookup('hash'))).toBeUndefined();
    SandboxContext.run('a', () => cache.remember('hash', 'new partner of a'));
    expect(SandboxContext.run('a', () => cache.lookup('hash'))).toBe('new partner of a');
    expect([...(cache.get('hash')?.keys() ?? [])]).toEqual(['b/1', 'a/2']);
  });

  it('holds at most `capacity` keys, dropping the oldest', () => {
    SandboxContext.run('a', () => cache.remember('second', 'x'));
    SandboxContext.run('a', () => cache.remember('third', 'y'));
    expect([...cache.keys()]).toEqual(['second', 'third']);
  });

  it('refuses to be used outside a sandbox context', () => {
    expect(() => cache.lookup('hash')).toThrow(/No sandbox context/);
  });
});
