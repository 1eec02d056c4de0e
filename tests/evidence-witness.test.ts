import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { logOrigin, openCheckpoint } from '../shared/evidence/checkpoint';
import { fromHex, verifyConsistency } from '../shared/evidence/merkle';
import { checkpointsBetween } from '../shared/evidence/proofs';
import { verifyWebhookSignature } from '../shared/webhooks/signature';
import { newTenant, useApi } from './support/api';
import { publishedNotice, recordConsent } from './support/consent';
import { waitForLog } from './support/evidence';
import { startReceiver, waitFor } from './support/receiver';
import { useTestWorkers } from './support/workers';

/**
 * Witnesses: every signed checkpoint reaches the tenant's own systems as a log.checkpoint webhook,
 * where the operator cannot take it back, and each one can be checked against the last one kept.
 */
const { call } = useApi();
useTestWorkers();

const run = promisify(execFile);
const secret = 'whsec_witness_0123456789';

describe('log.checkpoint webhooks', () => {
  it('publish every signed checkpoint exactly once, signed like every delivery, each extending the one before', async () => {
    const tenant = await newTenant(call);
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const created = await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label: 'Witness', url: receiver.url, secret, events: ['log.checkpoint'] } });
      expect(created.status).toBe(201);
      const { noticeId, required } = await publishedNotice(call, tenant.token);
      const consent = (label: string) => recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: `${label}@example.com`, consentGiven: { [required]: true } });
      // Three rounds, each signed before the next: at least three checkpoints.
      for (const [round, size] of [[['a', 'b'], 2], [['c'], 3], [['d', 'e'], 5]] as const) {
        for (const label of round) await consent(label);
        await waitForLog(tenant.tenantId, size);
      }
      const checkpoints = await checkpointsBetween(tenant.tenantId, 1, 5);
      expect(checkpoints.length).toBeGreaterThanOrEqual(3);

      // Deliveries are at least once: one event id per checkpoint, and one checkpoint per event id.
      const events = await waitFor(() => {
        const byId = new Map(receiver.received.map((request) => [JSON.parse(request.rawBody.toString('utf8')).id as string, request]));
        return byId.size >= checkpoints.length ? [...byId.values()] : undefined;
      });
      const envelopes = events.map((request) => {
        expect(request.headers['x-service-event']).toBe('log.checkpoint');
        expect(verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'] as string, secret)).toBe(true);
        return JSON.parse(request.rawBody.toString('utf8'));
      });
      const published = envelopes.map((envelope) => envelope.data).sort((a, b) => a.treeSize - b.treeSize);
      expect(published.map((data) => data.treeSize)).toEqual(checkpoints.map((checkpoint) => checkpoint.treeSize));
      expect(published.map((data) => data.note)).toEqual(checkpoints.map((checkpoint) => checkpoint.note));

      // A witness keeps the first note and checks each new one against the last it kept.
      const { keys } = (await call('GET', '/api/v1/consent/log/keys')).body;
      let kept = published[0]!;
      expect(kept.previousTreeSize).toBe(0);
      for (const next of published.slice(1)) {
        const opened = openCheckpoint(next.note, keys)!;
        expect(opened).toMatchObject({ origin: logOrigin(tenant.tenantId), treeSize: next.treeSize });
        expect(next.previousTreeSize).toBe(kept.treeSize);
        expect(verifyConsistency(kept.treeSize, next.treeSize, fromHex(kept.rootHash), opened.rootHash, next.consistencyProof.map(fromHex))).toBe(true);
        kept = next;
      }

      // Offline, with the script: from the event alone, and across a gap with the API's proof.
      const dir = await mkdtemp(join(tmpdir(), 'witness-'));
      const [first, second, last] = [envelopes.find((envelope) => envelope.data.treeSize === published[0]!.treeSize), envelopes.find((envelope) => envelope.data.treeSize === published[1]!.treeSize), published.at(-1)!];
      const proof = (await call('GET', `/api/v1/consent/log/consistency?from=${first.data.treeSize}&to=${last.treeSize}`, { token: tenant.token })).body;
      await Promise.all([
        writeFile(join(dir, 'first.json'), JSON.stringify(first)),
        writeFile(join(dir, 'second.json'), JSON.stringify(second)),
        writeFile(join(dir, 'latest.note'), last.note),
        writeFile(join(dir, 'keys.json'), JSON.stringify({ keys })),
        writeFile(join(dir, 'proof.json'), JSON.stringify(proof)),
      ]);
      const script = (...files: string[]) => run(process.execPath, ['scripts/verify-receipt.mjs', 'consistency', ...files.map((file) => join(dir, file))]).then(({ stdout }) => stdout, (error: { stdout: string }) => error.stdout);
      expect(await script('first.json', 'second.json', 'keys.json')).toMatch(/^CONSISTENT/);
      expect(await script('first.json', 'latest.note', 'keys.json', 'proof.json')).toMatch(/^CONSISTENT/);
      expect(await script('second.json', 'first.json', 'keys.json')).toMatch(/^INVALID: .*rolled back/);
    } finally {
      await receiver.close();
    }
  });
});
