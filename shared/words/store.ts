import { GetCommand } from '../db/commands';
import { batchGetAll } from '../db/batch';
import { db, tableName } from '../db/client';
import { entityOf } from '../db/item';
import type { NamedItem } from '../db/transact';
import { ConflictError } from '../errors';
import type { LanguageCode } from '../i18n/languages';
import { wordsKeys } from './keys';
import type { LanguageWords, WordsHead } from './words';

/** Another change of the tenant's words landed between our read and our write: the caller re-reads and re-applies. */
export class WordsMovedError extends ConflictError {
  constructor() {
    super("The tenant's words were changed by another request; retry");
  }
}

export const readHead = async (tenantId: string, consistent = false): Promise<WordsHead | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: wordsKeys.head(tenantId), ConsistentRead: consistent }));
  return Item ? entityOf<WordsHead>(Item) : undefined;
};

/** The items of these languages that exist, by language (one BatchGet). */
export const readLanguages = async (tenantId: string, languages: readonly LanguageCode[], consistent = false): Promise<Map<LanguageCode, LanguageWords>> => {
  const items = await batchGetAll([...new Set(languages)].map((language) => wordsKeys.language(tenantId, language)), { consistent });
  return new Map(items.map((item) => entityOf<LanguageWords>(item)).map((words) => [words.language, words]));
};

/** The head and some languages in one BatchGet: what a page or a mail reads. */
export const readHeadAndLanguages = async (tenantId: string, languages: readonly LanguageCode[]) => {
  const keys = [wordsKeys.head(tenantId), ...[...new Set(languages)].map((language) => wordsKeys.language(tenantId, language))];
  const items = await batchGetAll(keys);
  const head = items.find((item) => item.SK === wordsKeys.head(tenantId).SK);
  const words = items.filter((item) => item !== head).map((item) => entityOf<LanguageWords>(item));
  return { head: head ? entityOf<WordsHead>(head) : undefined, languages: new Map(words.map((language) => [language.language, language])) };
};

/** The head, written only over the revision the change was computed from. */
export const headPut = (head: WordsHead, previousRevision: number): NamedItem => ({
  name: 'words head',
  item: {
    Put: {
      TableName: tableName(),
      Item: { ...wordsKeys.head(head.tenantId), type: 'WordsHead', ...head },
      ...(previousRevision === 0
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : { ConditionExpression: 'revision = :previous', ExpressionAttributeValues: { ':previous': previousRevision } }),
    },
  },
  onConditionFailure: () => new WordsMovedError(),
});

/** A language's words; guarded by the head's condition in the same transaction. */
export const languagePut = (tenantId: string, words: LanguageWords): NamedItem => ({
  name: `words ${words.language}`,
  item: { Put: { TableName: tableName(), Item: { ...wordsKeys.language(tenantId, words.language), type: 'LanguageWords', ...words } } },
});

/**
 * No change of the tenant's words between a read of its head at `revision` (0: no head yet) and
 * a write that was computed from it elsewhere (a cookie configuration projecting the words of the
 * languages it starts offering): the writer re-reads and re-applies when they moved.
 */
export const headUnchanged = (tenantId: string, revision: number): NamedItem => ({
  name: 'words head',
  item: {
    ConditionCheck: {
      TableName: tableName(),
      Key: wordsKeys.head(tenantId),
      ...(revision === 0 ? { ConditionExpression: 'attribute_not_exists(PK)' } : { ConditionExpression: 'revision = :revision', ExpressionAttributeValues: { ':revision': revision } }),
    },
  },
  onConditionFailure: () => new WordsMovedError(),
});
