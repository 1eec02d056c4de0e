import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../shared/consent/proof';
import { sha256Hex } from '../shared/crypto/hash';
import { documentKeys } from '../shared/evidence/documents';
import { evidenceLogConsumer } from '../shared/evidence/log-consumer';
import { signPack } from '../shared/evidence-pack/signature';
import { newTenant, useApi } from './support/api';
import { publishedNotice, sha256 } from './support/consent';
import { insertsOf, waitForLog } from './support/evidence';
import { mailsTo } from './support/mail';
import { waitFor } from './support/receiver';
import { ownTenants, useTestWorkers } from './support/workers';

/**
 * The guardians' decisions in the evidence pack (issue 33) under the pack's rules (issue 31): they
 * are inside what the pack's signature covers, and the offline verifier holds them to the rules
 * the other entries meet: not dated after the pack, not before the record they decide, covered by
 * a signed checkpoint or by the pack's signature (exit 3), a rewritten or invented one refused.
 */
const { call } = useApi();
useTestWorkers();
const run = promisify(execFile);

let tenant: Awaited<ReturnType<typeof newTenant>>;
let child: string;
let parent: string;
let sdkRecord: (purposes: Record<string, boolean>) => Promise<string>;
let dir: string;
/** The guardian links already used, in the order they were mailed. */
const used: string[] = [];

/** The link in the guardian mail to the parent that is not one already used (each record's request mails one). */
const nextLink = async (): Promise<string> => {
  const link = await waitFor(async () => {
    const links = (await mailsTo(parent)).flatMap((mail) => [...(mail.body.text ?? '').matchAll(/\/portal\/g\/(g[0-9a-f]{32}[A-Za-z0-9_-]{43})/g)].map((match) => match[1]!));
    return links.find((candidate) => !used.includes(candidate));
  }, 30_000);
  used.push(link);
  return link;
};

const packNow = async () => (await call('POST', '/api/v1/consent/evidence-packs', { token: tenant.token, body: { principalHash: sha256(child) } })).body.data.pack;

/** The verifier as a DPO runs it: with the keys fetched from the service, not the pack's own. */
const verify = async (pack: unknown) => {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(pack));
  const keysFile = join(dir, 'keys.json');
  await writeFile(keysFile, JSON.stringify((await call('GET', '/api/v1/consent/log/keys')).body));
  return run(process.execPath, ['scripts/verify-evidence-pack.mjs', file, keysFile]).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout + error.stderr }),
  );
};
/** Signed again with the log's key after a change: what only the service's key (or rows forged in the table) could produce; the checks after the signature must still refuse it. */
const resigned = async (pack: any) => {
  const { signature: _signature, ...rest } = pack;
  return { ...rest, signature: await signPack(rest) };
};
/** A logged document rewritten, its canonical text and hash recomputed (what whoever holds the file can do). */
const rewritten = (decision: any, change: (document: any) => void, log = decision.log) => {
  const document = JSON.parse(decision.canonical);
  change(document);
  const canonical = canonicalJson(document);
  return { ...decision, documentId: document.documentId, canonical, hash: sha256Hex(canonical), log };
};
const shifted = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

let pack: any;
/** Record ids: the first approved by the parent, the second refused. */
let recordIds: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'children-pack-'));
  tenant = await newTenant(call);
  const notice = await publishedNotice(call, tenant.token);
  expect((await call('PUT', '/api/v1/children/settings', { token: tenant.token, body: { audience: 'MIXED', methods: ['SELF_DECLARED'] } })).status).toBe(200);
  const publishable = await tenant.apiKey();
  child = `child-${Math.random().toString(36).slice(2)}@example.in`;
  parent = `parent-${Math.random().toString(36).slice(2)}@example.in`;
  sdkRecord = async (purposes) => {
    const recorded = await call('POST', '/api/v1/consent/sdk-record', {
      body: { apiKey: publishable, status: 'ACCEPTED', purposes: { [notice.required]: true, ...purposes }, identifierHash: sha256(child), language: 'EN', principalStatus: 'CHILD', guardianEmail: parent },
    });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
    return recorded.body.data.consentRecordId as string;
  };
  const first = await sdkRecord({ [notice.optional]: true });
  const approvedLink = await nextLink();
  expect((await call('POST', `/api/v1/children/guardian/${approvedLink}/approve`, { body: { method: 'SELF_DECLARED', name: 'Asha Rao', birthYear: 1985, declaration: true } })).status).toBe(200);
  const second = await sdkRecord({ [notice.optional]: false });
  const refusedLink = await nextLink();
  expect((await call('POST', `/api/v1/children/guardian/${refusedLink}/refuse`, { body: { reason: 'not this one' } })).status).toBe(200);
  recordIds = [first, second];
  // The settings change, two records and two decisions, all in a signed checkpoint.
  await waitForLog(tenant.tenantId, 5);
  pack = await packNow();
});

describe('the guardians\' decisions in the evidence pack', () => {
  it('are in the pack the signature covers, each in the signed log, and the verifier says VALID naming each', async () => {
    expect(pack.records.map((record: { recordId: string }) => record.recordId)).toEqual(recordIds);
    expect(pack.guardianDecisions).toHaveLength(2);
    expect(pack.guardianDecisions.map((decision: { canonical: string }) => JSON.parse(decision.canonical).content.decision)).toEqual(['APPROVED', 'REFUSED']);
    expect(pack.guardianDecisions.map((decision: { log: { status: string } }) => decision.log.status)).toEqual(['INTEGRATED', 'INTEGRATED']);
    const result = await verify(pack);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/^VALID: .*2 record\(s\), 0 withdrawal\(s\), 2 guardian decision\(s\), /);
    expect(result.stdout).toContain("no withdrawal or guardian decision predates its record and no entry postdates the pack; 4 entries are in the tenant's log");
    expect(result.stdout).toMatch(/guardian decision #1 \(.+\), .+: in the signed checkpoint of size \d+, leaf \d+\./);
    expect(result.stdout).toMatch(/guardian decision #2 \(.+\), .+: in the signed checkpoint of size \d+, leaf \d+\./);
  });

  it('refuses a guardian decision changed in any way by the pack\'s signature, first', async () => {
    const altered = structuredClone(pack);
    altered.guardianDecisions[1] = rewritten(altered.guardianDecisions[1], (document) => {
      document.documentType = 'consent.guardian-verified';
      Object.assign(document.content, { decision: 'APPROVED', method: 'SELF_DECLARED', proofHash: '0'.repeat(64) });
    });
    expect(await verify(altered)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature does not verify: the pack was changed after the service signed it/) });
    const dropped = structuredClone(pack);
    dropped.guardianDecisions.pop();
    expect(await verify(dropped)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature does not verify/) });
  });

  const approval = (p: any) => p.guardianDecisions[0];
  it.each([
    ['the method changed, its hash not recomputed', (p: any) => (approval(p).canonical = approval(p).canonical.replace('SELF_DECLARED', 'VIRTUAL_TOKEN')), /^INVALID: guardian decision #1 \(.+\): the logged text does not hash to its hash: the decision was altered/],
    ['a refusal rewritten as an approval, its hash recomputed, marked not yet checkpointed where the checkpoint reaches', (p: any) => {
      p.guardianDecisions[1] = rewritten(p.guardianDecisions[1], (document) => {
        document.documentType = 'consent.guardian-verified';
        Object.assign(document.content, { decision: 'APPROVED', method: 'SELF_DECLARED', proofHash: '0'.repeat(64), recordProofHash: p.records[1].proofHash });
      }, { status: 'PENDING', leafIndex: p.guardianDecisions[1].log.leafIndex, inclusionProof: [] });
    }, /^INVALID: guardian decision #2 \(.+\): it is marked not yet checkpointed, yet the signed checkpoint of size \d+ covers its position \d+/],
    ['the approval moved past the pack', (p: any) => {
      p.guardianDecisions[0] = rewritten(approval(p), (document) => (document.at = shifted(p.generatedAt, 86_400_000)), { status: 'PENDING', leafIndex: null, inclusionProof: [] });
    }, /^INVALID: guardian decision #1 \(.+\): it is dated .+, after the pack was made \(/],
    ['an approval dated before the record it decides', (p: any) => {
      p.guardianDecisions[0] = rewritten(approval(p), (document) => (document.at = shifted(p.records[0].payload.createdAt, -60_000)), { status: 'PENDING', leafIndex: null, inclusionProof: [] });
    }, /^INVALID: guardian decision #1 \(.+\): it is dated .+, before record .+ it decides was given \(/],
    ['an invented second decision on the approved record', (p: any) => {
      p.guardianDecisions.push(rewritten(approval(p), (document) => {
        document.documentId = '01900000-0000-7000-8000-0000000000aa';
        document.documentType = 'consent.guardian-refused';
        document.content = { ...document.content, decision: 'REFUSED' };
      }, { status: 'PENDING', leafIndex: null, inclusionProof: [] }));
    }, /^INVALID: guardian decision #3 \(01900000-0000-7000-8000-0000000000aa\): record .+ was already decided by guardian decision #1/],
    ['an approval naming another guardian', (p: any) => {
      p.guardianDecisions[0] = rewritten(approval(p), (document) => (document.content.guardianHash = sha256('someone-else@example.in')), { status: 'PENDING', leafIndex: null, inclusionProof: [] });
    }, /^INVALID: guardian decision #1 \(.+\): it names another guardian than the record asked/],
    ['the decided record left out', (p: any) => p.records.shift(), /^INVALID: guardian decision #1 \(.+\): it decides record .+, which the pack does not hold/],
  ])('refuses a pack signed by the log\'s key yet holding %s, with its own reason', async (_case, alter, message) => {
    const altered = structuredClone(pack);
    alter(altered);
    expect(await verify(altered)).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: the pack's signature does not verify/) });
    const result = await verify(await resigned(altered));
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(message);
  });

  it('calls a pack whose guardian decision no checkpoint covers yet complete but not checkpointed (exit 3), and VALID after the next checkpoint', async () => {
    // This file's workers stop logging the tenant: the next decision stays unsequenced, and the
    // request's wait for a checkpoint (one second here) runs out.
    const third = await sdkRecord({});
    const link = await nextLink();
    await waitForLog(tenant.tenantId, 6);
    ownTenants.delete(tenant.tenantId);
    process.env.EVIDENCE_PACK_WAIT_SECONDS = '1';
    let documentId: string;
    try {
      expect((await call('POST', `/api/v1/children/guardian/${link}/approve`, { body: { method: 'SELF_DECLARED', name: 'Asha Rao', birthYear: 1985, declaration: true } })).status).toBe(200);
      const withPending = await packNow();
      const decision = withPending.guardianDecisions.find((entry: { canonical: string }) => JSON.parse(entry.canonical).subjectId === third);
      expect(decision).toMatchObject({ log: { status: 'PENDING', leafIndex: null, inclusionProof: [] } });
      documentId = decision.documentId;
      const result = await verify(withPending);
      expect(result.code, result.stdout).toBe(3);
      expect(result.stdout).toMatch(/^COMPLETE BUT NOT YET CHECKPOINTED: .*3 record\(s\), 0 withdrawal\(s\), 3 guardian decision\(s\)/);
      expect(result.stdout).toContain(`guardian decision #3 (${documentId}), ${JSON.parse(decision.canonical).at}: on the pack's signature alone, as of ${withPending.generatedAt}`);
      expect(result.stdout).toContain("1 entry rests on the pack's signature alone");
      // Still every check: the pending decision rewritten and signed again is INVALID.
      const altered = structuredClone(withPending);
      const index = altered.guardianDecisions.findIndex((entry: { documentId: string }) => entry.documentId === documentId);
      altered.guardianDecisions[index].canonical = altered.guardianDecisions[index].canonical.replace('SELF_DECLARED', 'VIRTUAL_TOKEN');
      expect(await verify(await resigned(altered))).toMatchObject({ code: 1, stdout: expect.stringMatching(/^INVALID: guardian decision #3 .*the decision was altered/) });
    } finally {
      ownTenants.add(tenant.tenantId);
      delete process.env.EVIDENCE_PACK_WAIT_SECONDS;
    }
    // The stream's late delivery of the document the workers passed over; then the next checkpoint.
    await evidenceLogConsumer.handle(await insertsOf([documentKeys.document(tenant.tenantId, documentId)]));
    await waitForLog(tenant.tenantId, 7);
    const later = await packNow();
    expect(later.guardianDecisions.find((entry: { documentId: string }) => entry.documentId === documentId)).toMatchObject({ log: { status: 'INTEGRATED' } });
    expect(await verify(later)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^VALID: .*3 guardian decision\(s\)/) });
  });
});
