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

/** The command class for one DynamoDB operation. */
const commandFor = <Input, Result>(operation: string) =>
  class extends DocumentCommand<Input, Result> {
    readonly operation = operation;
  };

export const GetCommand = /* @__PURE__ */ commandFor<GetCommandInput, Output<GetCommandOutput>>('GetItem');
export const PutCommand = /* @__PURE__ */ commandFor<PutCommandInput, Output<PutCommandOutput>>('PutItem');
export const UpdateCommand = /* @__PURE__ */ commandFor<UpdateCommandInput, Output<UpdateCommandOutput>>('UpdateItem');
export const DeleteCommand = /* @__PURE__ */ commandFor<DeleteCommandInput, Output<DeleteCommandOutput>>('DeleteItem');
export const QueryCommand = /* @__PURE__ */ commandFor<QueryCommandInput, Output<QueryCommandOutput>>('Query');
/** Tests and tools only: no request path scans (docs/data-model.md). */
export const ScanCommand = /* @__PURE__ */ commandFor<ScanCommandInput, Output<ScanCommandOutput>>('Scan');
export const BatchGetCommand = /* @__PURE__ */ commandFor<BatchGetCommandInput, Output<BatchGetCommandOutputOfSdk>>('BatchGetItem');
export const BatchWriteCommand = /* @__PURE__ */ commandFor<BatchWriteCommandInput, Output<BatchWriteCommandOutput>>('BatchWriteItem');
export const TransactGetCommand = /* @__PURE__ */ commandFor<TransactGetCommandInput, Output<TransactGetCommandOutput>>('TransactGetItems');
export const TransactWriteCommand = /* @__PURE__ */ commandFor<TransactWriteCommandInput, Output<TransactWriteCommandOutput>>('TransactWriteItems');

export type BatchGetCommandOutput = Output<BatchGetCommandOutputOfSdk>;
