import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { clock } from '../../shared/clock';
import { config } from '../../shared/config';
import { logHealth } from '../../shared/evidence/log-health';
import { log } from '../../shared/log';
import { sqs } from './sqs';

/**
 * The local stack's stand-in for the CDK stack's alarms (infra/alarms.ts): the same conditions,
 * at the same thresholds (config.alarmThresholds), logged as warnings by the local workers.
 */
export interface HealthReadings {
  /** Seconds since the oldest record the stream reader is still handling was made. */
  streamLagSeconds: number;
  /** Messages waiting in each dead-letter queue, by queue name. */
  deadLetters: Record<string, number>;
  checkpointLagSeconds: number;
  parkedTenants: string[];
}

export interface HealthWarning {
  message: string;
  fields: Record<string, unknown>;
}

/** The warnings the readings call for: one per condition an AWS alarm would be in. */
export const healthWarnings = (readings: HealthReadings, thresholds = config.alarmThresholds): HealthWarning[] => {
  const warnings: HealthWarning[] = [];
  if (readings.streamLagSeconds >= thresholds.streamIteratorAgeSeconds) {
    warnings.push({ message: 'the table stream is behind: a batch keeps failing for every tenant', fields: { streamLagSeconds: readings.streamLagSeconds, thresholdSeconds: thresholds.streamIteratorAgeSeconds } });
  }
  for (const [queue, messages] of Object.entries(readings.deadLetters)) {
    if (messages >= thresholds.deadLetterMessages) warnings.push({ message: 'messages in a dead-letter queue: work that failed every attempt', fields: { queue, messages } });
  }
  if (readings.checkpointLagSeconds >= thresholds.checkpointLagSeconds) {
    warnings.push({ message: 'evidence has waited too long for a signed checkpoint', fields: { checkpointLagSeconds: readings.checkpointLagSeconds, thresholdSeconds: thresholds.checkpointLagSeconds } });
  }
  if (readings.parkedTenants.length >= thresholds.parkedTenants) {
    warnings.push({ message: "tenants' log entries are parked after a failure", fields: { parkedTenants: readings.parkedTenants } });
  }
  return warnings;
};

const queueDepth = async (url: string): Promise<number> => {
  const { Attributes } = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages'] }));
  return Number(Attributes?.ApproximateNumberOfMessages ?? 0);
};

/** Reads the conditions and logs a warning for each one past its threshold; returns the warnings. */
export const checkHealth = async (streamLagSeconds: number, deadLetterQueueUrls: Record<string, string>): Promise<HealthWarning[]> => {
  const [evidence, depths] = await Promise.all([
    logHealth(clock.now()),
    Promise.all(Object.entries(deadLetterQueueUrls).map(async ([name, url]) => [name, await queueDepth(url)] as const)),
  ]);
  const warnings = healthWarnings({
    streamLagSeconds,
    deadLetters: Object.fromEntries(depths),
    checkpointLagSeconds: evidence.checkpointLagSeconds,
    parkedTenants: evidence.parked.map((tenant) => tenant.tenantId),
  });
  for (const warning of warnings) log.warn(warning.message, warning.fields);
  return warnings;
};
