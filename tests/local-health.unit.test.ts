import { describe, expect, it } from 'vitest';
import { healthWarnings } from '../infra/local/health';

/** The local stack warns at the points the AWS alarms fire (config.alarmThresholds). */
describe('local health warnings', () => {
  const thresholds = { streamIteratorAgeSeconds: 300, checkpointLagSeconds: 300, deadLetterMessages: 1, parkedTenants: 1, localCheckSeconds: 30 };
  const healthy = { streamLagSeconds: 299, deadLetters: { 'webhook-deliveries-dlq': 0 }, checkpointLagSeconds: 12, parkedTenants: [] };

  it('says nothing while everything is under its threshold', () => {
    expect(healthWarnings(healthy, thresholds)).toEqual([]);
  });

  it('warns once for each condition an alarm would be in', () => {
    const warnings = healthWarnings({ streamLagSeconds: 300, deadLetters: { 'webhook-deliveries-dlq': 2, 'tracker-scans-dlq': 0 }, checkpointLagSeconds: 301, parkedTenants: ['t1'] }, thresholds);
    expect(warnings.map((warning) => warning.message)).toEqual([
      'the table stream is behind: a batch keeps failing for every tenant',
      'messages in a dead-letter queue: work that failed every attempt',
      'evidence has waited too long for a signed checkpoint',
      "tenants' log entries are parked after a failure",
    ]);
    expect(warnings[1]!.fields).toEqual({ queue: 'webhook-deliveries-dlq', messages: 2 });
    expect(warnings[3]!.fields).toEqual({ parkedTenants: ['t1'] });
  });
});
