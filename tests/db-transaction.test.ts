import { randomUUID } from 'node:crypto';
import { GetCommand } from '../shared/db/commands';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../shared/db/client';
import { tryTransaction, writeTransaction, type NamedItem } from '../shared/db/transact';
import { AppError, ConflictError, NotFoundError } from '../shared/errors';

/** The one transaction helper, against DynamoDB Local: a failure is explained by the failing item's name. */
const put = (name: string, key: string, onConditionFailure?: () => AppError): NamedItem => ({
  name,
  item: { Put: { TableName: tableName(), Item: { PK: key, SK: 'X', type: 'Test' }, ConditionExpression: 'attribute_not_exists(PK)' } },
  ...(onConditionFailure ? { onConditionFailure } : {}),
});

const exists = async (key: string) => (await db().send(new GetCommand({ TableName: tableName(), Key: { PK: key, SK: 'X' } }))).Item !== undefined;

describe('writeTransaction', () => {
  it("throws the failing item's own error wherever it sits, and writes nothing", async () => {
    const taken = `TEST#${randomUUID()}`;
    await writeTransaction([put('first', taken)]);
    for (const order of [0, 1, 2]) {
      const fresh = [put('a', `TEST#${randomUUID()}`), put('b', `TEST#${randomUUID()}`)];
      const items = [...fresh];
      items.splice(order, 0, put('guard', taken, () => new NotFoundError('Guard')));
      await expect(writeTransaction(items)).rejects.toBeInstanceOf(NotFoundError);
      for (const item of fresh) expect(await exists((item.item.Put!.Item as { PK: string }).PK)).toBe(false);
    }
  });

  it('names an item without its own error in a CONFLICT', async () => {
    const taken = `TEST#${randomUUID()}`;
    await writeTransaction([put('first', taken)]);
    const failure = await writeTransaction([put('counter', `TEST#${randomUUID()}`), put('slug guard', taken)]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConflictError);
    expect((failure as Error).message).toContain('slug guard');
  });
});

describe('tryTransaction', () => {
  it('answers ok, or the name of the item whose condition failed', async () => {
    const taken = `TEST#${randomUUID()}`;
    expect(await tryTransaction([put('head', taken)])).toBe('ok');
    expect(await tryTransaction([put('record', `TEST#${randomUUID()}`), put('head', taken)])).toEqual({ failed: 'head' });
  });
});
