import { describe, expect, it } from 'vitest';
import { addCounters } from '../shared/db/transact';
import { AppError } from '../shared/errors';
import { countAgainstPlan } from '../shared/tenants/plan-limits';
import { tenantKeys } from '../shared/tenants/keys';

/** Request builders are plain functions: what they send is checked here, offline, in milliseconds. */
describe('addCounters', () => {
  it('adds each non-zero delta under a placeholder name, so any attribute name is safe', () => {
    const { Update } = addCounters({ PK: 'P', SK: 'S' }, { total: 1, skipped: 0, 'weird name': -1 });
    expect(Update).toMatchObject({
      Key: { PK: 'P', SK: 'S' },
      UpdateExpression: 'ADD #c0 :d0, #c1 :d1',
      ExpressionAttributeNames: { '#c0': 'total', '#c1': 'weird name' },
      ExpressionAttributeValues: { ':d0': 1, ':d1': -1 },
    });
  });
});

describe('countAgainstPlan', () => {
  it('adds one to the counter only below the plan limit, and names its failure PLAN_LIMIT_REACHED', () => {
    const named = countAgainstPlan('t1', 'webhookCount', 'webhooks', 'The tenant has reached its webhook limit');
    expect(named.name).toBe('plan limit webhooks');
    expect(named.item.Update).toMatchObject({
      Key: tenantKeys.tenant('t1'),
      UpdateExpression: 'ADD #count :one',
      ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#count) OR #count < limits.#limit)',
      ExpressionAttributeNames: { '#count': 'webhookCount', '#limit': 'webhooks' },
    });
    const error = named.onConditionFailure!();
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('PLAN_LIMIT_REACHED');
  });
});
