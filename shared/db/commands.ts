import type {
  BatchGetCommandInput,
  BatchGetCommandOutput as BatchGetCommandOutputOfSdk,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  ScanCommandOutput,
  TransactGetCommandInput,
  TransactGetCommandOutput,
  TransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';

/**
 * The document commands the stores send, with the inputs and outputs of @aws-sdk/lib-dynamodb's
 * (native JavaScript values, not `{ S: … }`), sent by shared/db/client.ts instead of the SDK's
 * client: the types are the SDK's, only the bytes shipped are not. `operation` is DynamoDB's own
 * name for the call, set here rather than read from the class name, which minifying renames.
 */
type Output<T> = Omit<T, '$metadata'>;

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

export type {
  BatchGetCommandInput,
  BatchWriteCommandInput,
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  ScanCommandInput,
  TransactWriteCommandInput,
  UpdateCommandInput,
};
