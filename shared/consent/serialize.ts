/**
 * Runs work for one key one at a time within this process. A Lambda container serves one request
 * at a time, so this only matters where one process serves many (the local server, tests):
 * there it spares appends to one tenant's chain from failing each other's conditions. The
 * conditional write on the chain head, not this, is what keeps the chain from forking.
 */
const tails = new Map<string, Promise<unknown>>();

export const serialized = <T>(key: string, work: () => Promise<T>): Promise<T> => {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
};
