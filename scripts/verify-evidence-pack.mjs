#!/usr/bin/env node
/**
 * Offline verifier of an evidence pack (POST /api/v1/consent/evidence-packs): needs Node.js 20+
 * and nothing else (no install, no network, no service code), so an auditor or the Data
 * Protection Board can check what a data principal agreed to and withdrew without trusting us.
 *
 *   node scripts/verify-evidence-pack.mjs pack.json [keys.json]
 *
 * pack.json  the pack: the { data: { pack } } body, { pack }, the bare pack, or the ?format=html
 *            page (its embedded JSON is read)
 * keys.json  optional: GET /api/v1/consent/log/keys (JWKS) obtained independently; without it the
 *            pack's own keys are used, which shows the pack is consistent, not whose keys they are
 *
 * Checks, in order: the signed checkpoint (C2SP signed note, Ed25519 or ECDSA P-256, of this
 * tenant's log) and the consistency proof to the latest checkpoint (RFC 9162 §2.1.4); then each
 * record: its payload hashes (RFC 8785, SHA-256) to its proof hash, belongs to this tenant and
 * principal, the notice text in the pack hashes to the record's noticeTextHash, its receipt is
 * signed and names it, and its inclusion proof (RFC 9162 §2.1.3) leads to the checkpoint; then each
 * withdrawal likewise. Entries the checkpoint does not cover yet (PENDING) are checked but for
 * their place in the log, which is not yet provable: they are listed, not failed.
 * Prints VALID with a summary and exits 0, or INVALID: <position>: <reason> (the first failure)
 * and exits 1; exit 2 on a usage error.
 */
import {
  at,
  canonicalHash,
  canonicalJson,
  consistencyHolds,
  fail,
  hexBytes,
  inclusionRoot,
  jwksKeys,
  leafHash,
  logOrigin,
  openCheckpoint,
  parseJson,
  receiptClaims,
  runVerifier,
  sha256,
} from './evidence-checks.mjs';

const knownVersions = [1];
const maxBytes = 64 * 1024 * 1024;

/** The pack in a JSON file or in the page ?format=html returns. */
const packOf = (text, name) => {
  if (text.length > maxBytes) fail(`${name} is larger than ${maxBytes} bytes`);
  const start = text.indexOf('<script type="application/json" id="evidence-pack">');
  const json = start < 0 ? text : text.slice(text.indexOf('>', start) + 1, text.indexOf('</script>', start));
  const parsed = parseJson(json, name);
  const pack = parsed?.data?.pack ?? parsed?.pack ?? parsed;
  if (pack?.kind !== 'consent-service/evidence-pack') fail(`${name} is not an evidence pack`);
  if (!knownVersions.includes(pack.packVersion)) fail(`pack version ${pack.packVersion} is not one this verifier knows (${knownVersions.join(', ')}): use a newer verifier`);
  return pack;
};

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const listOf = (value, what) => (Array.isArray(value) ? value : fail(`the pack's ${what} are missing`));

/** A signed checkpoint of this tenant's log whose fields say what its note says. */
const signedCheckpoint = (checkpoint, tenantId, keys, keysName, what) => {
  const opened = at(what, () => openCheckpoint(checkpoint.note, keys, keysName));
  if (opened.origin !== logOrigin(tenantId)) fail(`${what}: the checkpoint is of log ${opened.origin}, not of tenant ${tenantId}'s`);
  if (opened.treeSize !== checkpoint.treeSize || !opened.rootHash.equals(hexBytes(checkpoint.rootHash, `${what}: rootHash`))) fail(`${what}: its tree size or root differs from what its signed note says`);
  return opened;
};

const checkLog = (pack, keys, keysName) => {
  const { checkpoint, latestCheckpoint, consistencyProof } = isObject(pack.log) ? pack.log : fail('the pack has no log section');
  if (pack.log.origin !== logOrigin(pack.tenant.tenantId)) fail(`log: the origin ${pack.log.origin} is not tenant ${pack.tenant.tenantId}'s log`);
  if (checkpoint === null) return undefined;
  const signed = signedCheckpoint(checkpoint, pack.tenant.tenantId, keys, keysName, 'checkpoint');
  const latest = signedCheckpoint(latestCheckpoint ?? fail('latest checkpoint: missing'), pack.tenant.tenantId, keys, keysName, 'latest checkpoint');
  const proof = listOf(consistencyProof, 'consistency proof').map((node) => hexBytes(node, 'consistency proof: a node'));
  if (!consistencyHolds(signed.treeSize, latest.treeSize, signed.rootHash, latest.rootHash, proof)) {
    fail(`consistency proof: it does not show the tree of size ${latest.treeSize} extends the signed tree of size ${signed.treeSize}`);
  }
  return { ...signed, signedAt: checkpoint.signedAt, latest };
};

/** An entry's place in the signed tree: proven, or pending (returned so the summary lists it). */
const checkInclusion = (entry, hash, signed, position) => {
  const log = isObject(entry.log) ? entry.log : fail(`${position}: its log section is missing`);
  if (log.status === 'PENDING') return position;
  if (log.status !== 'INTEGRATED') fail(`${position}: unknown log status ${log.status}`);
  if (!signed) fail(`${position}: it claims a place in the log, but the pack has no signed checkpoint`);
  const path = listOf(log.inclusionProof, `${position} inclusion proof`).map((node) => hexBytes(node, `${position}: an inclusion proof node`));
  const root = inclusionRoot(log.leafIndex, signed.treeSize, leafHash(hash), path);
  if (!root || !root.equals(signed.rootHash)) fail(`${position}: the inclusion proof does not place it at leaf ${log.leafIndex} of the signed tree of size ${signed.treeSize}`);
  return undefined;
};

const noticeKey = (noticeId, versionNumber, language) => JSON.stringify([noticeId, versionNumber, language]);

const checkRecord = (pack, record, index, notices, keys, keysName, signed) => {
  const position = `record #${index + 1} (${record?.recordId})`;
  const payload = isObject(record?.payload) ? record.payload : fail(`${position}: its payload is missing`);
  const proofHash = hexBytes(record.proofHash, `${position}: proofHash`);
  if (canonicalHash(payload) !== record.proofHash) fail(`${position}: the payload does not hash to its proof hash: the evidence was altered`);
  if (payload.recordId !== record.recordId) fail(`${position}: the payload is of record ${payload.recordId}`);
  if (payload.tenantId !== pack.tenant.tenantId) fail(`${position}: the payload is of tenant ${payload.tenantId}`);
  if (payload.dataPrincipalHash !== pack.principalHash) fail(`${position}: the payload is of another principal (${payload.dataPrincipalHash})`);
  const noticeHash = notices.get(noticeKey(payload.noticeId, payload.noticeVersionNumber, payload.languageShown));
  if (!noticeHash) fail(`${position}: the pack has no text of notice ${payload.noticeId} version ${payload.noticeVersionNumber} in ${payload.languageShown}`);
  if (noticeHash !== payload.noticeTextHash) fail(`${position}: the notice text in the pack does not hash to the noticeTextHash the record holds: the notice text was altered`);
  const claims = at(position, () => receiptClaims(record.receipt, keys, keysName));
  const expected = { rid: record.recordId, ph: record.proofHash, tid: pack.tenant.tenantId, nid: payload.noticeId, nv: payload.noticeVersionNumber };
  for (const [claim, value] of Object.entries(expected)) {
    if (claims[claim] !== value) fail(`${position}: the receipt's ${claim} is ${claims[claim]}, the record's ${value}`);
  }
  return checkInclusion(record, proofHash, signed, position);
};

const checkWithdrawal = (pack, withdrawal, index, recordIds, signed) => {
  const position = `withdrawal #${index + 1} (${withdrawal?.withdrawalId})`;
  const evidence = isObject(withdrawal?.evidence) ? withdrawal.evidence : fail(`${position}: its evidence is missing`);
  const hash = hexBytes(withdrawal.hash, `${position}: hash`);
  if (canonicalHash(evidence) !== withdrawal.hash) fail(`${position}: the evidence does not hash to its hash: the withdrawal was altered`);
  if (evidence.kind !== 'withdrawal' || evidence.withdrawalId !== withdrawal.withdrawalId) fail(`${position}: the evidence is not of this withdrawal`);
  if (evidence.tenantId !== pack.tenant.tenantId || evidence.dataPrincipalHash !== pack.principalHash) fail(`${position}: the evidence is of another tenant or principal`);
  for (const recordId of listOf(evidence.recordIds, `${position} record ids`)) {
    if (!recordIds.has(recordId)) fail(`${position}: it names record ${recordId}, which the pack does not hold`);
  }
  return checkInclusion(withdrawal, hash, signed, position);
};

const guardianMethods = ['TENANT_ATTESTED', 'SELF_DECLARED', 'VIRTUAL_TOKEN'];

/**
 * A guardian's decision on a child's record: the logged text hashes to its hash, is a decision of
 * this tenant on a record the pack holds (a child's, naming the same guardian), an approval names
 * one of the three methods, the hash of its proof and the record's proof hash, and it is in the log.
 */
const checkGuardianDecision = (pack, decision, index, records, signed) => {
  const position = `guardian decision #${index + 1} (${decision?.documentId})`;
  const hash = hexBytes(decision?.hash, `${position}: hash`);
  if (typeof decision.canonical !== 'string' || sha256(Buffer.from(decision.canonical, 'utf8')).toString('hex') !== decision.hash) fail(`${position}: the logged text does not hash to its hash: the decision was altered`);
  const document = at(position, () => JSON.parse(decision.canonical));
  if (canonicalJson(document) !== decision.canonical) fail(`${position}: the logged text is not in RFC 8785 form`);
  if (document.kind !== 'document' || document.documentId !== decision.documentId || document.tenantId !== pack.tenant.tenantId) fail(`${position}: it is not a logged document of this tenant with this id`);
  const content = isObject(document.content) ? document.content : fail(`${position}: it has no content`);
  const record = records.get(document.subjectId) ?? fail(`${position}: it decides record ${document.subjectId}, which the pack does not hold`);
  if (content.consentRecordId !== document.subjectId) fail(`${position}: its record and its subject differ`);
  const child = isObject(record.payload.child) ? record.payload.child : fail(`${position}: record ${document.subjectId} is no child's or guarded person's record`);
  if (content.guardianHash !== child.guardianHash) fail(`${position}: it names another guardian than the record asked`);
  const decisions = { 'consent.guardian-verified': 'APPROVED', 'consent.guardian-refused': 'REFUSED', 'consent.guardian-expired': 'EXPIRED' };
  if (decisions[document.documentType] === undefined || decisions[document.documentType] !== content.decision) fail(`${position}: unknown decision ${document.documentType} (${content.decision})`);
  if (content.decision === 'APPROVED') {
    if (!guardianMethods.includes(content.method)) fail(`${position}: unknown verification method ${content.method}`);
    hexBytes(content.proofHash, `${position}: the hash of what proved the guardian an adult`);
    if (content.recordProofHash !== record.proofHash) fail(`${position}: it approves another version of the record (proof hash ${content.recordProofHash})`);
  }
  return checkInclusion(decision, hash, signed, position);
};

const check = (pack, keysFile, keysName) => {
  if (!isObject(pack.tenant) || typeof pack.tenant.tenantId !== 'string') fail('the pack names no tenant');
  hexBytes(pack.principalHash, 'the principal hash');
  const keys = jwksKeys(keysFile ?? pack.keys, keysName);
  const signed = checkLog(pack, keys, keysName);
  const notices = new Map(listOf(pack.notices, 'notices').map((notice, index) => {
    if (!isObject(notice?.text)) fail(`notice #${index + 1} (${notice?.noticeId}): its text is missing`);
    return [noticeKey(notice.noticeId, notice.versionNumber, notice.language), canonicalHash(notice.text)];
  }));
  const records = listOf(pack.records, 'records');
  const withdrawals = listOf(pack.withdrawals, 'withdrawals');
  // Packs made before children's records have no guardianDecisions: an empty list.
  const guardianDecisions = pack.guardianDecisions === undefined ? [] : listOf(pack.guardianDecisions, 'guardian decisions');
  const pending = [
    ...records.map((record, index) => checkRecord(pack, record, index, notices, keys, keysName, signed)),
    ...withdrawals.map((withdrawal, index) => checkWithdrawal(pack, withdrawal, index, new Set(records.map((record) => record.recordId)), signed)),
    ...guardianDecisions.map((decision, index) => checkGuardianDecision(pack, decision, index, new Map(records.map((record) => [record.recordId, record])), signed)),
  ].filter(Boolean);
  const proven = records.length + withdrawals.length + guardianDecisions.length - pending.length;
  const lines = [
    `VALID: evidence pack of principal ${pack.principalHash.slice(0, 12)}… at ${pack.tenant.name} (${pack.tenant.tenantId}): ${records.length} record(s), ${withdrawals.length} withdrawal(s), ${guardianDecisions.length > 0 ? `${guardianDecisions.length} guardian decision(s), ` : ''}${notices.size} notice text(s).`,
    `Every hash, notice text and receipt checks, with ${keysFile ? keysName : "the pack's own keys"}; ${proven} entr${proven === 1 ? 'y is' : 'ies are'} in the tenant's log${signed ? ` of size ${signed.treeSize}, signed ${signed.signedAt}, consistent with the latest checkpoint of size ${signed.latest.treeSize}` : ''}.`,
    ...pending.map((position) => `PENDING: ${position}: no signed checkpoint covered it when the pack was made; its hashes check, its place in the log is not yet provable (make the pack again in a minute).`),
  ];
  return lines.join('\n');
};

runVerifier({
  usage: 'node scripts/verify-evidence-pack.mjs pack.json [keys.json]',
  accepts: (count) => count === 1 || count === 2,
  check: ([pack, keys]) => check(packOf(pack.text, pack.name), keys && parseJson(keys.text, keys.name), keys ? keys.name : "the pack's keys"),
});
