import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiDocuments } from '../functions/meta/documents';
import { asyncApiDocument } from '../shared/events/asyncapi';
import { openApiDocument } from '../shared/http/openapi';
import { generatedDocumentsFile, generatedDocumentsSource } from '../scripts/api-documents';

describe('the API documents the meta function serves', () => {
  it('are the documents the route table and the event catalogue make now (else run `npm run api-documents`)', () => {
    // Compared as the JSON that is served, so key order and every value count (a boolean: the
    // documents are 700 KB, too long for a diff to help).
    const fresh = (served: unknown, made: unknown) => JSON.stringify(served) === JSON.stringify(made);
    expect(fresh(apiDocuments().openApi, openApiDocument()), 'OpenAPI: run `npm run api-documents`').toBe(true);
    expect(fresh(apiDocuments().asyncApi, asyncApiDocument()), 'AsyncAPI: run `npm run api-documents`').toBe(true);
    expect(readFileSync(generatedDocumentsFile, 'utf8') === generatedDocumentsSource(), 'run `npm run api-documents`').toBe(true);
  });
});
