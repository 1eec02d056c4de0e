import { brotliDecompressSync } from 'node:zlib';
import { packedDocuments } from './documents.generated';

/**
 * The OpenAPI and AsyncAPI documents, generated from the route table and the event catalogue by
 * scripts/api-documents.ts and unpacked once per warm instance, at the first request for either.
 */
interface Documents {
  openApi: Record<string, unknown>;
  asyncApi: Record<string, unknown>;
}

let unpacked: Documents | undefined;

export const apiDocuments = (): Documents =>
  (unpacked ??= JSON.parse(brotliDecompressSync(Buffer.from(packedDocuments, 'base64')).toString('utf8')) as Documents);
