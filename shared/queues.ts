/**
 * The service's SQS queues, declared once: the CDK stack creates them in AWS and the local stack
 * creates them in the SQS emulator at start.
 */
export const queueDefinitions = {
  webhookDeliveries: { name: 'webhook-deliveries', deadLetterName: 'webhook-deliveries-dlq', maxReceiveCount: 5 },
  /** A redelivered scan message ends its run FAILED (the first attempt died), so two receives suffice. */
  trackerScans: { name: 'tracker-scans', deadLetterName: 'tracker-scans-dlq', maxReceiveCount: 2 },
  /**
   * Breach intimation: resolution pages and batches of principals. Every step is idempotent (a
   * batch re-claims only its own principals), so a message may come back; after 5 receives it
   * waits in the DLQ, and calling the intimation again once it stalls re-queues its work.
   */
  breachIntimations: { name: 'breach-intimations', deadLetterName: 'breach-intimations-dlq', maxReceiveCount: 5 },
} as const;
