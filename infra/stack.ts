import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ConsentApi } from './api';
import { ConsentTable, WebhookQueues } from './data';
import { GroupFunctions } from './functions';

export const stackName = 'ConsentServiceStack';

/** Everything the service runs on: the table, the webhook queue, one Lambda per group, the HTTP API. */
export class ConsentServiceStack extends Stack {
  readonly data: ConsentTable;
  readonly queues: WebhookQueues;
  readonly functions: GroupFunctions;
  readonly api: ConsentApi;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.data = new ConsentTable(this, 'Data');
    this.queues = new WebhookQueues(this, 'Webhooks');
    this.functions = new GroupFunctions(this, 'Functions', {
      table: this.data.table,
      webhookQueue: this.queues.queue,
    });
    this.api = new ConsentApi(this, 'Api', { functions: this.functions });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the HTTP API',
      value: this.api.httpApi.apiEndpoint,
    });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'WebhookQueueUrl', { value: this.queues.queue.queueUrl });
  }
}
