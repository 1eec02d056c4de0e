import { describe, expect, it } from 'vitest';
import { prohibitedMark } from '../shared/children/policy';
import { consentKeys } from '../shared/consent/keys';
import { settingsMarks } from '../shared/consent/settings-store';
import { addCounters } from '../shared/db/transact';
import { mergedUpdate } from '../shared/db/update';
import { retentionMarks } from '../shared/retention/settings';
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

describe('settingsMarks', () => {
  it("writes a purpose's marks as one update of the settings item, its one condition and that condition's error", () => {
    const named = settingsMarks('t1', [prohibitedMark('p1', true), retentionMarks('p1', { retention: { period: 'P5Y', from: 'LAST_ACTIVITY' }, thirdScheduleException: null })]);
    expect(named.item.Update).toMatchObject({
      Key: consentKeys.settings('t1'),
      UpdateExpression: 'SET #type = :type, tenantId = :tenant, #prohibited = :true ADD #retaining :purpose, #long :purpose',
      ConditionExpression: '(attribute_not_exists(#retention.#class) OR attribute_type(#retention.#class, :null))',
      ExpressionAttributeNames: { '#type': 'type', '#prohibited': 'cp_p1', '#retaining': 'retainingPurposes', '#long': 'longRetention', '#retention': 'retention', '#class': 'thirdScheduleClass' },
      ExpressionAttributeValues: { ':type': 'ConsentSettings', ':tenant': 't1', ':true': true, ':purpose': new Set(['p1']), ':null': 'NULL' },
    });
    expect(named.onConditionFailure!().code).toBe('VALIDATION_ERROR');
    // Without a retention: both retention marks deleted, and nothing to refuse.
    const cleared = settingsMarks('t1', [prohibitedMark('p1', false), retentionMarks('p1', { retention: null })]);
    expect(cleared.item.Update).toMatchObject({ UpdateExpression: 'SET #type = :type, tenantId = :tenant REMOVE #prohibited DELETE #retaining :purpose, #long :purpose' });
    expect(cleared.item.Update!.ConditionExpression).toBeUndefined();
    expect(cleared.onConditionFailure).toBeUndefined();
  });

  it('refuses parts that use one placeholder for two things, or two conditions it could not tell apart', () => {
    expect(() => mergedUpdate([{ set: ['#a = :v'], names: { '#a': 'one' }, values: { ':v': 1 } }, { set: ['#a = :v'], names: { '#a': 'two' }, values: { ':v': 1 } }])).toThrow(/#a/);
    expect(() => mergedUpdate([{ add: ['#s :v'], names: { '#s': 's' }, values: { ':v': new Set(['a']) } }, { delete: ['#t :v'], names: { '#t': 't' }, values: { ':v': new Set(['b']) } }])).toThrow(/:v/);
    const conditional = { condition: 'attribute_exists(#a)', names: { '#a': 'a' } };
    expect(() => settingsMarks('t1', [conditional, conditional])).toThrow(/condition/);
  });
});
