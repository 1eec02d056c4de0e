/**
 * The service's SQS queues, declared once: the CDK stack creates them in AWS and the local stack
 * creates them in the SQS emulator at start.
 */
export const queueDefinitions = {
  webhookDeliveries: { name: 'webhook-deliveries', deadLetterName: 'webhook-deliveries-dlq', maxReceiveCount: 5 },
} as const;
