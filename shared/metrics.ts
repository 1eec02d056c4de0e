/**
 * The service's own CloudWatch metrics, written as CloudWatch embedded metric format (EMF): a JSON
 * log line that CloudWatch Logs turns into metric data points, so a function emits metrics without
 * an SDK call or an IAM grant. The CDK stack alarms on them (infra/alarms.ts); the local stack's
 * workers log the same conditions as warnings.
 */
export const metricNamespace = 'ConsentService';

export const metricNames = {
  /** Seconds the oldest evidence has waited for a signed checkpoint: unsigned integrations and parked entries (checkpointer, every run). */
  checkpointLag: 'CheckpointLagSeconds',
  /** Tenants whose log entries are parked after a failure (checkpointer, every run). */
  parkedTenants: 'ParkedTenants',
  /** A stream consumer failed for one tenant and parked its changes (each time). */
  streamTenantFailures: 'StreamTenantFailures',
  /** A checkpoint could not be signed or archived (each time). */
  checkpointFailures: 'CheckpointFailures',
} as const;

export type MetricName = (typeof metricNames)[keyof typeof metricNames];

const unitOf: Record<MetricName, 'Seconds' | 'Count'> = {
  CheckpointLagSeconds: 'Seconds',
  ParkedTenants: 'Count',
  StreamTenantFailures: 'Count',
  CheckpointFailures: 'Count',
};

/** The EMF document of these values (no dimensions: the alarms watch the service as a whole); `context` rides along as plain fields. */
export const metricsLine = (values: Partial<Record<MetricName, number>>, context: Record<string, unknown> = {}, at = Date.now()) => {
  const names = Object.keys(values) as MetricName[];
  return {
    _aws: { Timestamp: at, CloudWatchMetrics: [{ Namespace: metricNamespace, Dimensions: [[]], Metrics: names.map((name) => ({ Name: name, Unit: unitOf[name] })) }] },
    ...context,
    ...values,
  };
};

export const emitMetrics = (values: Partial<Record<MetricName, number>>, context: Record<string, unknown> = {}): void => {
  if (process.env.CMS_LOG_SILENT === '1') return;
  console.log(JSON.stringify(metricsLine(values, context)));
};
