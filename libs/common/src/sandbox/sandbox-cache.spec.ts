import { SandboxCache } from './sandbox-cache';
import type { IncomingMessage } from 'node:http';
import type { RequestWithSandbox } from './request-sandbox';
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
  it('drops every entry of a sandbox it is told of (deleted or reset: contract §13 Lifecycle), and only those', () => {
    const listeners: Array<(sandboxId: string) => void> = [];
    const told = new SandboxCache<string>({ generation: '1', onForget: (listener) => listeners.push(listener) });
    for (const sandbox of ['a', 'b']) SandboxContext.run(sandbox, () => ['k1', 'k2'].forEach((key) => told.remember(key, `${key} of ${sandbox}`)));
    listeners.forEach((listener) => listener('a'));
    expect([...told.entries()].map(([key, entries]) => [key, [...entries.keys()]])).toEqual([
      ['k1', ['b/1']],
      ['k2', ['b/1']],
    ]);
    listeners.forEach((listener) => listener('b'));
    expect(told.size).toBe(0);
  });

  it('remembers nothing a request read across a reset of its sandbox: it may be the old world\'s (contract §13 reset)', () => {
    const generations = { generation: '1' };
    const straddled = new SandboxCache<string>(generations);
    const requestIn = (generation: string) => ({ sandboxGeneration: generation }) as RequestWithSandbox as IncomingMessage;
    SandboxContext.run('a', () => {
      // The request began in generation 1; the reset this instance adopted meanwhile made it 2.
      generations.generation = '2';
      straddled.remember('hash', 'partner of the old world');
    }, requestIn('1'));
    expect(SandboxContext.run('a', () => straddled.lookup('hash'))).toBeUndefined();
    SandboxContext.run('a', () => straddled.remember('hash', 'partner as reset'), requestIn('2'));
    expect(SandboxContext.run('a', () => straddled.lookup('hash'))).toBe('partner as reset');
  });

  it('holds at most `capacity` entries in all, however many sandboxes share one key', () => {
    const shared = new SandboxCache<string>({ generation: '1' }, 3);
    for (const sandbox of ['a', 'b', 'c']) SandboxContext.run(sandbox, () => shared.remember('same key', sandbox));
    SandboxContext.run('d', () => shared.remember('other', 'd'));
    expect([...shared.keys()]).toEqual(['other']);
    expect(SandboxContext.run('d', () => shared.lookup('other'))).toBe('d');
  });
});
