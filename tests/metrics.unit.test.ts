import { describe, expect, it } from 'vitest';
import { metricNames, metricsLine } from '../shared/metrics';

describe('metrics (CloudWatch embedded metric format)', () => {
  it('writes the values with their units under the service namespace, without dimensions, the context beside them', () => {
    const line = metricsLine({ [metricNames.checkpointLag]: 42, [metricNames.parkedTenants]: 1 }, { parkedTenantIds: ['t1'] }, 1_760_000_000_000);
    expect(line).toEqual({
      _aws: {
        Timestamp: 1_760_000_000_000,
        CloudWatchMetrics: [{ Namespace: 'ConsentService', Dimensions: [[]], Metrics: [{ Name: 'CheckpointLagSeconds', Unit: 'Seconds' }, { Name: 'ParkedTenants', Unit: 'Count' }] }],
      },
      parkedTenantIds: ['t1'],
      CheckpointLagSeconds: 42,
      ParkedTenants: 1,
    });
  });
});
