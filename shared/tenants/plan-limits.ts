import { tableName } from '../db/client';
import type { NamedItem, TransactItem } from '../db/transact';
import { AppError } from '../errors';
import { tenantKeys } from './keys';
import type { PlanLimits } from './tenant';

/**
 * The transaction item that counts one more of something against the tenant's plan: it fails
 * its condition (and so the whole transaction) once the count has reached the plan's limit.
 */
type PlanCounter = 'userCount' | 'noticeCount' | 'webhookCount';

export const countAgainstPlan = (
  tenantId: string,
  counter: PlanCounter,
  limit: keyof PlanLimits,
  limitReached: string,
): NamedItem => ({
  name: `plan limit ${limit}`,
  item: {
    Update: {
      TableName: tableName(),
      Key: tenantKeys.tenant(tenantId),
      UpdateExpression: 'ADD #count :one',
      ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#count) OR #count < limits.#limit)',
      ExpressionAttributeNames: { '#count': counter, '#limit': limit },
      ExpressionAttributeValues: { ':one': 1 },
    },
  },
  onConditionFailure: () => new AppError('PLAN_LIMIT_REACHED', limitReached),
});

/** The transaction item that frees one place when something counted against the plan is deleted. */
export const releasePlanCount = (tenantId: string, counter: PlanCounter): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: tenantKeys.tenant(tenantId),
    UpdateExpression: 'ADD #count :minusOne',
    ExpressionAttributeNames: { '#count': counter },
    ExpressionAttributeValues: { ':minusOne': -1 },
  },
});
