import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock';
import type { RateLimitRule } from '../config';
import { db, tableName } from '../db/client';
import { RateLimitError } from '../errors';
import { rateLimitKeys } from './keys';

type LimitCode = ConstructorParameters<typeof RateLimitError>[0];

/**
 * The one rate limiter: a fixed window counted by an atomic ADD on one item per
 * (rule, subject, window); the item expires by TTL once its window is over. One write per check.
 */
export const consumeRateLimit = async (rule: RateLimitRule, subject: string, code: LimitCode): Promise<void> => {
  const nowSeconds = Math.floor(clock.now().getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % rule.windowSeconds);
  const windowEnd = windowStart + rule.windowSeconds;
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: rateLimitKeys.counter(rule.name, subject, windowStart),
      UpdateExpression: 'ADD hits :one SET expiresAt = :expires',
      ExpressionAttributeValues: { ':one': 1, ':expires': windowEnd + 60 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  if (Number(Attributes?.hits ?? 0) > rule.limit) {
    throw new RateLimitError(code, windowEnd - nowSeconds, `Rate limit of ${rule.limit} per ${rule.windowSeconds} s exceeded`);
  }
};
