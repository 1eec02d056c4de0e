import type {
  BatchGetCommandInput as SdkBatchGetCommandInput,
  BatchGetCommandOutput as BatchGetCommandOutputOfSdk,
  BatchWriteCommandInput as SdkBatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput as SdkDeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput as SdkGetCommandInput,
  GetCommandOutput,
  PutCommandInput as SdkPutCommandInput,
  PutCommandOutput,
  QueryCommandInput as SdkQueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput as SdkScanCommandInput,
  ScanCommandOutput,
  TransactGetCommandInput as SdkTransactGetCommandInput,
  TransactGetCommandOutput,
  TransactWriteCommandInput as SdkTransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput as SdkUpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';

/**
 * The document commands the stores send, with the inputs and outputs of @aws-sdk/lib-dynamodb's
 * (native JavaScript values, not `{ S: … }`), sent by shared/db/client.ts instead of the SDK's
 * client: the types are the SDK's (less the members below), only the bytes shipped are not.
 * `operation` is DynamoDB's own name for the call, set here rather than read from the class name,
 * which minifying renames.
 */
type Output<T> = Omit<T, '$metadata'>;
/**
 * Left out of the inputs: the members of DynamoDB's first API (Expected, AttributeUpdates,
 * KeyConditions, QueryFilter, ScanFilter), whose values lib-dynamodb converts and wire.ts does not
 * (expressions say the same), and ReturnItemCollectionMetrics, whose ItemCollectionKey would come
 * back unconverted. Nothing here uses them; the compiler keeps it so.
 */
type Converted<T> = Omit<T, 'Expected' | 'AttributeUpdates' | 'KeyConditions' | 'QueryFilter' | 'ScanFilter' | 'ReturnItemCollectionMetrics'>;
export type BatchGetCommandInput = Converted<SdkBatchGetCommandInput>;
export type BatchWriteCommandInput = Converted<SdkBatchWriteCommandInput>;
export type DeleteCommandInput = Converted<SdkDeleteCommandInput>;
export type GetCommandInput = Converted<SdkGetCommandInput>;
export type PutCommandInput = Converted<SdkPutCommandInput>;
export type QueryCommandInput = Converted<SdkQueryCommandInput>;
export type ScanCommandInput = Converted<SdkScanCommandInput>;
export type TransactGetCommandInput = Converted<SdkTransactGetCommandInput>;
export type TransactWriteCommandInput = Converted<SdkTransactWriteCommandInput>;
export type UpdateCommandInput = Converted<SdkUpdateCommandInput>;

export abstract class DocumentCommand<Input, Result> {
  abstract readonly operation: string;
  /** Only carries the result type for `send`. */
  declare readonly resultType: Result;
  constructor(readonly input: Input) {}
}

export class GetCommand extends DocumentCommand<GetCommandInput, Output<GetCommandOutput>> {
  readonly operation = 'GetItem';
}
export class PutCommand extends DocumentCommand<PutCommandInput, Output<PutCommandOutput>> {
  readonly operation = 'PutItem';
}
export class UpdateCommand extends DocumentCommand<UpdateCommandInput, Output<UpdateCommandOutput>> {
  readonly operation = 'UpdateItem';
}
export class DeleteCommand extends DocumentCommand<DeleteCommandInput, Output<DeleteCommandOutput>> {
  readonly operation = 'DeleteItem';
}
export class QueryCommand extends DocumentCommand<QueryCommandInput, Output<QueryCommandOutput>> {
  readonly operation = 'Query';
}
/** Tests and tools only: no request path scans (docs/data-model.md). */
export class ScanCommand extends DocumentCommand<ScanCommandInput, Output<ScanCommandOutput>> {
  readonly operation = 'Scan';
}
export class BatchGetCommand extends DocumentCommand<BatchGetCommandInput, Output<BatchGetCommandOutputOfSdk>> {
  readonly operation = 'BatchGetItem';
}
export class BatchWriteCommand extends DocumentCommand<BatchWriteCommandInput, Output<BatchWriteCommandOutput>> {
  readonly operation = 'BatchWriteItem';
}
export class TransactGetCommand extends DocumentCommand<TransactGetCommandInput, Output<TransactGetCommandOutput>> {
  readonly operation = 'TransactGetItems';
}
export class TransactWriteCommand extends DocumentCommand<TransactWriteCommandInput, Output<TransactWriteCommandOutput>> {
  readonly operation = 'TransactWriteItems';
}

export type BatchGetCommandOutput = Output<BatchGetCommandOutputOfSdk>;
