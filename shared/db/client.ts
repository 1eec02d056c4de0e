import { AwsError } from '../aws/errors';
import { callJson, MiddlewareClient, throughMiddleware, type CallHandler, type JsonService, type Middleware } from '../aws/json-service';
import { endpointOf } from '../aws/request';
import { config } from '../config';
import type { DocumentCommand } from './commands';
import { binaryReviver, errorFieldsFromWire, inputToWire, outputFromWire } from './wire';

/** Middleware here sees the command's input in document form (it may add members) and DynamoDB's answer before conversion. */
export type { Middleware };

/**
 * The DynamoDB client every store sends through: lib-dynamodb's commands and semantics (native
 * values in and out, undefined members dropped, a fresh idempotency token per transaction, the
 * SDK's error names and fields, its standard retries) over one signed JSON POST per call. The SDK
 * client it replaces was about 200 KB of every function's bundle (docs/bundles.md).
 */
export class DocumentClient extends MiddlewareClient {
  constructor(private readonly service: JsonService) {
    super();
  }

  async send<Result>(command: DocumentCommand<unknown, Result>): Promise<Result> {
    const operation = command.operation;
    const handler: CallHandler = throughMiddleware(this.middleware, operation, async ({ input }) => ({
      output: await callJson<Record<string, unknown>>(this.service, operation, inputToWire(operation, input), { reviver: binaryReviver }),
    }));
    try {
      const { output } = await handler({ input: { ...(command.input as Record<string, unknown>) } });
      return outputFromWire(operation, output) as Result;
    } catch (error) {
      if (error instanceof AwsError && (error.Item !== undefined || error.CancellationReasons !== undefined)) {
        Object.assign(error, errorFieldsFromWire({ Item: error.Item, CancellationReasons: error.CancellationReasons }));
      }
      throw error;
    }
  }
}

/** DynamoDB as an awsJson service: the local engine's endpoint when given, else AWS's in the region. */
export const dynamoDbService = (localEndpoint: string | undefined): JsonService => ({ endpoint: () => endpointOf('dynamodb', localEndpoint), targetPrefix: 'DynamoDB_20120810', version: '1.0' });

/** A client for DynamoDB at the configured endpoint (the local engine's, or AWS's in the region). */
export const createDocumentClient = (localEndpoint: string | undefined = config.dynamodbEndpoint): DocumentClient => new DocumentClient(dynamoDbService(localEndpoint));

let documentClient: DocumentClient | undefined;

/** One client per process, built on first use so tests can point it at their engine first. */
export const db = (): DocumentClient => (documentClient ??= createDocumentClient());

/** Tests and benchmarks swap in an instrumented or failing client. */
export const setDocumentClient = (client: DocumentClient | undefined): void => {
  documentClient = client;
};

export const tableName = (): string => config.tableName;
