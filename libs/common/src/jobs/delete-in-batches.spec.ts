import { deleteInBatches } from './delete-in-batches';

describe('deleteInBatches (retention and expiry jobs)', () => {
  it('asks for full batches until one comes back short', async () => {
    let left = 7;
    const asked: number[] = [];
    await deleteInBatches((limit) => {
      asked.push(limit);
      const deleted = Math.min(limit, left);
      left -= deleted;
      return Promise.resolve(deleted);
    }, 3);
    expect(asked).toEqual([3, 3, 3]);
    expect(left).toBe(0);
  });

  it('stops after one batch when there is nothing to delete', async () => {
    let calls = 0;
    await deleteInBatches(() => Promise.resolve(calls++ && 0), 500);
    expect(calls).toBe(1);
  });
});
