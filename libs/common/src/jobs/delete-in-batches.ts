/**
 * Deletes by bounded batches until one comes back short: no statement holds its locks for long,
 * however much there is to delete (the retention and expiry jobs).
 */
export async function deleteInBatches(deleteBatch: (limit: number) => Promise<number>, limit: number): Promise<void> {
  let deleted: number;
  do deleted = await deleteBatch(limit);
  while (deleted === limit);
}
