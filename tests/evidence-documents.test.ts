import { DeleteCommand, UpdateCommand } from '../shared/db/commands';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../shared/db/client';
import { writeTransaction } from '../shared/db/transact';
import { documentKeys, documentPut, documentsOf } from '../shared/evidence/documents';
import { logProofOf } from '../shared/evidence/proofs';
import { sha256Hex } from '../shared/crypto/hash';
import { newTenant, useApi } from './support/api';
import { waitForLog } from './support/evidence';
import { useTestWorkers } from './support/workers';

const { call } = useApi();
useTestWorkers();

const verify = async (token: string) => (await call('GET', '/api/v1/consent/proof-chain/verify', { token })).body.data;

/** Two documents of one subject, written as a domain would (in its own transaction) and logged. */
const loggedDocuments = async () => {
  const tenant = await newTenant(call);
  const subjectId = 'subject-1';
  const first = documentPut({ tenantId: tenant.tenantId, documentType: 'test.opened', subjectId, at: '2026-11-25T10:00:00.000Z', content: { note: 'opened', items: [1, 2] } });
  const second = documentPut({ tenantId: tenant.tenantId, documentType: 'test.closed', subjectId, at: '2026-11-25T11:00:00.000Z', content: { note: 'closed', by: 'dpo' } });
  await writeTransaction([first.item]);
  await writeTransaction([second.item]);
  await waitForLog(tenant.tenantId, 2);
  return { tenant, subjectId, documents: [first.document, second.document] };
};

describe('logged documents (filings of rights requests and breaches)', () => {
  it('become leaves of the tenant log, are listed by subject and verify intact', async () => {
    const { tenant, subjectId, documents } = await loggedDocuments();
    expect(documents[0]!.hash).toBe(sha256Hex(documents[0]!.canonical));
    expect(JSON.parse(documents[0]!.canonical)).toMatchObject({ kind: 'document', documentType: 'test.opened', subjectId, content: { note: 'opened' } });
    expect((await documentsOf(tenant.tenantId, subjectId)).map((document) => document.documentId)).toEqual(documents.map((document) => document.documentId));
    const proof = await logProofOf(tenant.tenantId, documents[1]!.documentId);
    expect(proof).toMatchObject({ status: 'INTEGRATED', leafIndex: 1, treeSize: 2 });
    expect(await verify(tenant.token)).toMatchObject({ intact: true, treeSize: 2, checked: 2, problems: [] });
  });

  it('never replaces a logged document: the same id written again fails', async () => {
    const tenant = await newTenant(call);
    const input = { tenantId: tenant.tenantId, documentType: 'test.once', subjectId: 's', at: '2026-11-25T10:00:00.000Z', content: { a: 1 } };
    const { document, item } = documentPut(input);
    await writeTransaction([item]);
    await expect(writeTransaction([documentPut({ ...input, content: { a: 2 } }, document.documentId).item])).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('finds a document rewritten (with its hash recomputed) or deleted, with its position', async () => {
    const { tenant, documents } = await loggedDocuments();
    const key = documentKeys.document(tenant.tenantId, documents[0]!.documentId);
    const forged = documents[0]!.canonical.replace('opened', 'amended');
    await db().send(new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: 'SET canonical = :c, #h = :h', ExpressionAttributeNames: { '#h': 'hash' }, ExpressionAttributeValues: { ':c': forged, ':h': sha256Hex(forged) } }));
    expect((await verify(tenant.token)).problems).toEqual([expect.objectContaining({ position: 0, kind: 'document', id: documents[0]!.documentId, reason: expect.stringContaining('altered') })]);
    await db().send(new DeleteCommand({ TableName: tableName(), Key: documentKeys.document(tenant.tenantId, documents[1]!.documentId) }));
    const result = await verify(tenant.token);
    expect(result.intact).toBe(false);
    expect(result.problems).toEqual(expect.arrayContaining([expect.objectContaining({ position: 1, kind: 'document', reason: expect.stringContaining('missing') })]));
  });
});
