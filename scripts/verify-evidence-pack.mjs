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
 * keys.json  the service's public keys (JWKS), fetched from the service itself:
 *            curl -s https://<service>/api/v1/consent/log/keys > keys.json
 *            Without it only the pack's own keys are used, which shows the pack agrees with itself,
 *            not that the service made it (whoever rewrote a pack could sign it with a key of their
 *            own and put that key in); the verifier says which keys it trusted.
 *
 * Checks, in order. First the pack's signature: a compact JWS with detached payload (RFC 7515
 * Appendix F) by the evidence log's key over the RFC 8785 form of the pack without `signature`;
 * a pack without one, signed by another key, or changed in any way after it was signed is INVALID.
 * Then the signed checkpoint (C2SP signed note, Ed25519 or ECDSA P-256, of this tenant's log) and
 * the consistency proof to the latest checkpoint (RFC 9162 §2.1.4); then each record: its payload
 * hashes (RFC 8785, SHA-256) to its proof hash, belongs to this tenant and principal, the notice
 * text in the pack hashes to the record's noticeTextHash, its receipt is signed and names it, it is
 * not dated after the pack was made, and its inclusion proof (RFC 9162 §2.1.3) leads to the
 * checkpoint; then each withdrawal likewise, which must name only records the pack holds and be
 * dated neither before any of them nor after the pack was made; then each parent's or guardian's
 * decision on a child's record: its logged text hashes to its hash, decides a child's record the
 * pack holds (once) and names that record's guardian, an approval names its method, the hash of its
 * proof and the record's proof hash, and it is dated neither before the record nor after the pack.
 * Values retention erased once her consent lapsed for every purpose (a record's external id, user
 * agent and IP address, a withdrawal's reason) show as `{ sha256 }`: such a payload stands for its
 * hash only by the binding a logged erasure of the pack holds (the record's proof hash or the
 * withdrawal's hash, each value's SHA-256, and the SHA-256 of the payload as shown; only those
 * fields can be bound, so an erasure can hide a value, never a choice, a record or a withdrawal).
 * Whoever holds a clear value can put it back in place of `{ sha256 }` and hash the payload to the
 * hash itself.
 * Each entry is covered either by the signed checkpoint (its inclusion proof) or, while no
 * checkpoint covers it yet (PENDING), by the pack's signature alone, as of the time the pack was
 * made; the verifier lists which, entry by entry.
 *
 * Exit codes:
 *   0  VALID: every check holds and every entry is in a signed checkpoint
 *   3  COMPLETE BUT NOT YET CHECKPOINTED: every check holds, but some entries rest on the pack's
 *      signature alone (make the pack again after the next checkpoint, seconds to a minute later)
 *   1  INVALID: <position>: <reason> (the first failure)
 *   2  usage error, or a file that cannot be read
 */
import {
  at,
  bindingProblem,
  boundFields,
  canonicalHash,
  canonicalJson,
  consistencyHolds,
  fail,
  hexBytes,
  inclusionRoot,
  isErasedMarker,
  jwksKeys,
  leafHash,
  logOrigin,
  openCheckpoint,
  parseJson,
  receiptClaims,
  recordBindingsOf,
  runVerifier,
  sha256,
  verifiedJws,
} from './evidence-checks.mjs';

const knownVersions = [2];
const maxBytes = 64 * 1024 * 1024;
/** The pack signature's explicit type (shared/evidence-pack/signature.ts). */
const packSignatureType = 'consent-evidence-pack+jws';
/**
 * The evidence log's key, as every JWKS of the service names it (shared/evidence/signers.ts): a
 * pack signed with the receipt key, which more of the service's functions hold, is refused.
 */
const logKeyId = /^consent-service-log-[0-9a-f]{16}$/;
const exitNotCheckpointed = 3;

/** The pack in a JSON file or in the page ?format=html returns. */
const packOf = (text, name) => {
  if (text.length > maxBytes) fail(`${name} is larger than ${maxBytes} bytes`);
  const start = text.indexOf('<script type="application/json" id="evidence-pack">');
  const json = start < 0 ? text : text.slice(text.indexOf('>', start) + 1, text.indexOf('</script>', start));
  const parsed = parseJson(json, name);
  const pack = parsed?.data?.pack ?? parsed?.pack ?? parsed;
  if (pack?.kind !== 'consent-service/evidence-pack') fail(`${name} is not an evidence pack`);
  if (pack.packVersion === 1) fail('the pack is of format 1, which carries no signature: whoever held it could have rewritten it. Ask the service for a new pack');
  if (!knownVersions.includes(pack.packVersion)) fail(`pack version ${pack.packVersion} is not one this verifier knows (${knownVersions.join(', ')}): use a newer verifier`);
  return pack;
};

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const listOf = (value, what) => (Array.isArray(value) ? value : fail(`the pack's ${what} are missing`));
/** Milliseconds of an ISO 8601 time the service wrote. */
const timeOf = (value, what) => {
  const ms = typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? ms : fail(`${what} is not a time`);
};

/**
 * The pack's signature, before anything else is believed: by the log's key, over exactly this pack
 * (without `signature`). Returns the key it was made with.
 */
const checkSignature = (pack, keys, keysName) => {
  if (pack.signature === undefined || pack.signature === null || pack.signature === '') {
    fail('the pack carries no signature: anyone holding it could have rewritten it. Ask the service for a new pack');
  }
  const { signature, ...unsigned } = pack;
  const { header } = verifiedJws(signature, keys, keysName, {
    typ: packSignatureType,
    what: "the pack's signature",
    altered: "the pack's signature does not verify: the pack was changed after the service signed it (an entry, a date, a log status, anything in it), or it was signed by another key under that key's name",
    detached: Buffer.from(canonicalJson(unsigned), 'utf8'),
  });
  if (!logKeyId.test(String(header.kid))) fail(`the pack is signed by key ${header.kid}, not by the evidence log's key (consent-service-log-…)`);
  return { kid: header.kid, alg: header.alg };
};

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

/** What covers an entry: its inclusion proof to the signed checkpoint, or (PENDING) the pack's signature alone. */
const checkInclusion = (entry, hash, signed, position) => {
  const log = isObject(entry.log) ? entry.log : fail(`${position}: its log section is missing`);
  if (log.status === 'PENDING') {
    // The service marks an entry PENDING only when the checkpoint does not reach its position.
    if (signed && Number.isSafeInteger(log.leafIndex) && log.leafIndex < signed.treeSize) {
      fail(`${position}: it is marked not yet checkpointed, yet the signed checkpoint of size ${signed.treeSize} covers its position ${log.leafIndex}: it should carry an inclusion proof`);
    }
    return { by: 'signature' };
  }
  if (log.status !== 'INTEGRATED') fail(`${position}: unknown log status ${log.status}`);
  if (!signed) fail(`${position}: it claims a place in the log, but the pack has no signed checkpoint`);
  const path = listOf(log.inclusionProof, `${position} inclusion proof`).map((node) => hexBytes(node, `${position}: an inclusion proof node`));
  const root = inclusionRoot(log.leafIndex, signed.treeSize, leafHash(hash), path);
  if (!root || !root.equals(signed.rootHash)) fail(`${position}: the inclusion proof does not place it at leaf ${log.leafIndex} of the signed tree of size ${signed.treeSize}`);
  return { by: 'checkpoint', leafIndex: log.leafIndex };
};

const noticeKey = (noticeId, versionNumber, language) => JSON.stringify([noticeId, versionNumber, language]);

/** No entry can be younger than the pack that holds it. */
const notAfterPack = (time, iso, madeAt, pack, position) => {
  if (time > madeAt) fail(`${position}: it is dated ${iso}, after the pack was made (${pack.generatedAt})`);
};

const checkRecord = (pack, record, index, notices, keys, keysName, signed, madeAt) => {
  const position = `record #${index + 1} (${record?.recordId})`;
  const payload = isObject(record?.payload) ? record.payload : fail(`${position}: its payload is missing`);
  const proofHash = hexBytes(record.proofHash, `${position}: proofHash`);
  // Values erased by retention: the payload holds their SHA-256 and stands for the proof hash only by an erasure's logged binding (checked below).
  const erased = Object.values(payload).some(isErasedMarker);
  if (!erased && canonicalHash(payload) !== record.proofHash) fail(`${position}: the payload does not hash to its proof hash: the evidence was altered`);
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
  const givenAt = timeOf(payload.createdAt, `${position}: its createdAt`);
  notAfterPack(givenAt, payload.createdAt, madeAt, pack, position);
  return { position, at: payload.createdAt, time: givenAt, erased, ...checkInclusion(record, proofHash, signed, position) };
};

const checkWithdrawal = (pack, withdrawal, index, records, bound, signed, madeAt) => {
  const position = `withdrawal #${index + 1} (${withdrawal?.withdrawalId})`;
  const evidence = isObject(withdrawal?.evidence) ? withdrawal.evidence : fail(`${position}: its evidence is missing`);
  const hash = hexBytes(withdrawal.hash, `${position}: hash`);
  // Its reason erased by retention: the evidence stands for its hash only by an erasure's logged binding (checked with the erasures).
  if (Object.values(evidence).some(isErasedMarker)) {
    if (!bound.has(withdrawal.withdrawalId)) fail(`${position}: its reason was erased, yet no erasure in the pack binds its evidence without it to its hash: the withdrawal was altered`);
  } else if (canonicalHash(evidence) !== withdrawal.hash) fail(`${position}: the evidence does not hash to its hash: the withdrawal was altered`);
  if (evidence.kind !== 'withdrawal' || evidence.withdrawalId !== withdrawal.withdrawalId) fail(`${position}: the evidence is not of this withdrawal`);
  if (evidence.tenantId !== pack.tenant.tenantId || evidence.dataPrincipalHash !== pack.principalHash) fail(`${position}: the evidence is of another tenant or principal`);
  const withdrawnAt = timeOf(evidence.withdrawnAt, `${position}: its withdrawnAt`);
  for (const recordId of listOf(evidence.recordIds, `${position} record ids`)) {
    const record = records.get(recordId) ?? fail(`${position}: it names record ${recordId}, which the pack does not hold`);
    if (withdrawnAt < record.time) fail(`${position}: it is dated ${evidence.withdrawnAt}, before record ${recordId} it withdraws was given (${record.at})`);
  }
  notAfterPack(withdrawnAt, evidence.withdrawnAt, madeAt, pack, position);
  return { position, at: evidence.withdrawnAt, ...checkInclusion(withdrawal, hash, signed, position) };
};

const guardianMethods = ['TENANT_ATTESTED', 'SELF_DECLARED', 'VIRTUAL_TOKEN'];
/** The logged document of each decision a parent or guardian makes (shared/children/decisions.ts), and what it says. */
const guardianDecisionTypes = { 'consent.guardian-verified': 'APPROVED', 'consent.guardian-refused': 'REFUSED', 'consent.guardian-expired': 'EXPIRED' };

/**
 * A parent's or guardian's decision on a child's record: the logged text hashes to its hash and
 * is a decision of this tenant on a record the pack holds (a child's, naming the same guardian),
 * at most one per record; an approval names one of the three methods, the hash of its proof and
 * the record's proof hash. Like a withdrawal, it is dated neither before its record nor after the
 * pack was made, and covered by the checkpoint or by the pack's signature.
 */
const checkGuardianDecision = (pack, decision, index, records, decided, signed, madeAt) => {
  const position = `guardian decision #${index + 1} (${decision?.documentId})`;
  const hash = hexBytes(decision?.hash, `${position}: hash`);
  if (typeof decision.canonical !== 'string' || sha256(Buffer.from(decision.canonical, 'utf8')).toString('hex') !== decision.hash) fail(`${position}: the logged text does not hash to its hash: the decision was altered`);
  const document = at(position, () => JSON.parse(decision.canonical));
  if (canonicalJson(document) !== decision.canonical) fail(`${position}: the logged text is not in RFC 8785 form`);
  if (document.kind !== 'document' || document.documentId !== decision.documentId || document.tenantId !== pack.tenant.tenantId) fail(`${position}: it is not a logged document of this tenant with this id`);
  const content = isObject(document.content) ? document.content : fail(`${position}: it has no content`);
  const record = records.get(document.subjectId) ?? fail(`${position}: it decides record ${document.subjectId}, which the pack does not hold`);
  if (content.consentRecordId !== document.subjectId) fail(`${position}: its record and its subject differ`);
  if (decided.has(document.subjectId)) fail(`${position}: record ${document.subjectId} was already decided by ${decided.get(document.subjectId)}; a guardian decides a record once`);
  decided.set(document.subjectId, position);
  const child = isObject(record.payload.child) ? record.payload.child : fail(`${position}: record ${document.subjectId} is no child's or guarded person's record`);
  if (content.guardianHash !== child.guardianHash) fail(`${position}: it names another guardian than the record asked`);
  const kind = Object.hasOwn(guardianDecisionTypes, document.documentType) ? guardianDecisionTypes[document.documentType] : undefined;
  if (kind === undefined || kind !== content.decision) fail(`${position}: unknown decision ${document.documentType} (${content.decision})`);
  if (content.decision === 'APPROVED') {
    if (!guardianMethods.includes(content.method)) fail(`${position}: unknown verification method ${content.method}`);
    hexBytes(content.proofHash, `${position}: the hash of what proved the guardian an adult`);
    if (content.recordProofHash !== record.proofHash) fail(`${position}: it approves another version of the record (proof hash ${content.recordProofHash})`);
  }
  const decidedAt = timeOf(document.at, `${position}: its time`);
  if (decidedAt < record.time) fail(`${position}: it is dated ${document.at}, before record ${document.subjectId} it decides was given (${record.at})`);
  notAfterPack(decidedAt, document.at, madeAt, pack, position);
  return { position, at: document.at, ...checkInclusion(decision, hash, signed, position) };
};

/**
 * What the service erased of the principal once her consent lapsed for every purpose (retention,
 * s.8(7)): the logged text hashes to its hash and is this tenant's retention.erased of this
 * principal, naming only records and withdrawals the pack holds, dated neither before them nor after
 * the pack. Each binding names an entry it names, with the hash the pack (and the log) holds for it;
 * for an entry shown with erased values, only erasable fields, each shown as its SHA-256, and the
 * evidence as shown is what it bound (evidence-checks.mjs bindingProblem). It says what went, when
 * and why; her records' and withdrawals' evidence stays, and verifies by it.
 */
const checkErasure = (pack, erasure, index, records, withdrawals, signed, madeAt) => {
  const position = `erasure #${index + 1} (${erasure?.documentId})`;
  const hash = hexBytes(erasure?.hash, `${position}: hash`);
  if (typeof erasure.canonical !== 'string' || sha256(Buffer.from(erasure.canonical, 'utf8')).toString('hex') !== erasure.hash) fail(`${position}: the logged text does not hash to its hash: the erasure was altered`);
  const document = at(position, () => JSON.parse(erasure.canonical));
  if (canonicalJson(document) !== erasure.canonical) fail(`${position}: the logged text is not in RFC 8785 form`);
  if (document.kind !== 'document' || document.documentId !== erasure.documentId || document.tenantId !== pack.tenant.tenantId) fail(`${position}: it is not a logged document of this tenant with this id`);
  if (document.documentType !== 'retention.erased') fail(`${position}: it is a ${document.documentType}, not an erasure`);
  const content = isObject(document.content) ? document.content : fail(`${position}: it has no content`);
  if (content.identifierHash !== pack.principalHash || document.subjectId !== `retention:${pack.principalHash}`) fail(`${position}: it erased another principal's data`);
  const erasedAt = timeOf(document.at, `${position}: its time`);
  const named = listOf(content.records, `${position} records`);
  for (const recordId of named) {
    const record = records.get(recordId) ?? fail(`${position}: it names record ${recordId}, which the pack does not hold`);
    if (erasedAt < record.time) fail(`${position}: it is dated ${document.at}, before record ${recordId} was given (${record.at})`);
  }
  const namedWithdrawals = content.withdrawals === undefined ? [] : listOf(content.withdrawals, `${position} withdrawals`);
  for (const withdrawalId of namedWithdrawals) {
    const withdrawal = withdrawals.get(withdrawalId) ?? fail(`${position}: it names withdrawal ${withdrawalId}, which the pack does not hold`);
    const withdrawnAt = timeOf(withdrawal.evidence?.withdrawnAt, `${position}: withdrawal ${withdrawalId}'s withdrawnAt`);
    if (erasedAt < withdrawnAt) fail(`${position}: it is dated ${document.at}, before withdrawal ${withdrawalId} was made (${withdrawal.evidence.withdrawnAt})`);
  }
  notAfterPack(erasedAt, document.at, madeAt, pack, position);
  // Each record whose values it erased: the evidence without them, as the pack shows it, is what hashed to the record's proof hash (the binding is a leaf of the log).
  const bound = recordBindingsOf(content).map((binding) => {
    const record = records.get(binding?.recordId);
    if (!record || !named.includes(binding.recordId)) fail(`${position}: it binds record ${binding?.recordId}, which it does not name or the pack does not hold`);
    if (binding.proofHash !== record.proofHash) fail(`${position}: its binding of record ${binding.recordId} names proof hash ${binding.proofHash}, the record's is ${record.proofHash}`);
    const problem = record.erased && bindingProblem('record', record.payload, canonicalHash(record.payload), binding.recordId, record.proofHash, binding);
    if (problem) fail(`${position}: record ${binding.recordId}'s evidence without its erased values is not what it bound: ${problem}`);
    return binding.recordId;
  });
  const boundWithdrawals = (content.withdrawalBindings === undefined ? [] : listOf(content.withdrawalBindings, `${position} withdrawal bindings`)).map((binding) => {
    const withdrawal = withdrawals.get(binding?.withdrawalId);
    if (!withdrawal || !namedWithdrawals.includes(binding.withdrawalId)) fail(`${position}: it binds withdrawal ${binding?.withdrawalId}, which it does not name or the pack does not hold`);
    if (binding.hash !== withdrawal.hash) fail(`${position}: its binding of withdrawal ${binding.withdrawalId} names hash ${binding.hash}, the withdrawal's is ${withdrawal.hash}`);
    const evidence = isObject(withdrawal.evidence) ? withdrawal.evidence : fail(`${position}: withdrawal ${binding.withdrawalId} has no evidence`);
    const problem = Object.values(evidence).some(isErasedMarker) && bindingProblem('withdrawal', evidence, canonicalHash(evidence), binding.withdrawalId, withdrawal.hash, binding);
    if (problem) fail(`${position}: withdrawal ${binding.withdrawalId}'s evidence without its reason is not what it bound: ${problem}`);
    return binding.withdrawalId;
  });
  const fields = [...new Set(recordBindingsOf(content).flatMap((binding) => boundFields('record', binding)))];
  const erased = listOf(content.erased, `${position} erased fields`).join(', ');
  const what = [plural(named.length, 'record', 'records'), ...(namedWithdrawals.length > 0 ? [plural(namedWithdrawals.length, 'withdrawal', 'withdrawals')] : [])].join(' and ');
  return {
    position,
    at: document.at,
    bound,
    boundWithdrawals,
    said: `${position}, ${document.at}: her personal data (${erased}) of ${what} erased, reason ${content.reason}${content.runId ? `, run ${content.runId}` : ''}; the evidence stays${fields.length + boundWithdrawals.length > 0 ? `, its erased values (${[...fields, ...(boundWithdrawals.length > 0 ? ['withdrawal reason'] : [])].join(', ')}) bound by their SHA-256` : ''}.`,
    ...checkInclusion(erasure, hash, signed, position),
  };
};

const plural = (count, one, many) => `${count} ${count === 1 ? one : many}`;

/** Whose keys the verdict rests on: said plainly, since the pack's own keys prove nothing about who made it. */
const keysSaid = (keysFile, keysName) =>
  keysFile
    ? `Keys: from ${keysName}, given on the command line. The verdict is only as good as that file: fetch it from the service itself (GET /api/v1/consent/log/keys, over HTTPS), not from whoever handed you the pack.`
    : "Keys: only the pack's own keys. They show the pack agrees with itself, not that the service made it: whoever rewrote a pack could sign it with a key of their own and put that key in. Fetch the service's keys (curl -s https://<service>/api/v1/consent/log/keys > keys.json) and run again: node scripts/verify-evidence-pack.mjs pack.json keys.json";

const check = (pack, keysFile, keysName) => {
  const keys = jwksKeys(keysFile ?? pack.keys, keysName);
  const signer = checkSignature(pack, keys, keysName);
  if (!isObject(pack.tenant) || typeof pack.tenant.tenantId !== 'string') fail('the pack names no tenant');
  hexBytes(pack.principalHash, 'the principal hash');
  const madeAt = timeOf(pack.generatedAt, "the pack's time of making (generatedAt)");
  const signed = checkLog(pack, keys, keysName);
  const notices = new Map(listOf(pack.notices, 'notices').map((notice, index) => {
    if (!isObject(notice?.text)) fail(`notice #${index + 1} (${notice?.noticeId}): its text is missing`);
    return [noticeKey(notice.noticeId, notice.versionNumber, notice.language), canonicalHash(notice.text)];
  }));
  const records = listOf(pack.records, 'records');
  const withdrawals = listOf(pack.withdrawals, 'withdrawals');
  // Packs made before children's records have no guardianDecisions: an empty list (the signature covers the field when present).
  const guardianDecisions = pack.guardianDecisions === undefined ? [] : listOf(pack.guardianDecisions, 'guardian decisions');
  const checkedRecords = records.map((record, index) => checkRecord(pack, record, index, notices, keys, keysName, signed, madeAt));
  const byId = new Map(records.map((record, index) => [record.recordId, { ...checkedRecords[index], payload: record.payload, proofHash: record.proofHash }]));
  const decided = new Map();
  // Only the pack of a principal whose data was erased has erasures (the signature covers the field when present).
  const erasures = pack.erasures === undefined ? [] : listOf(pack.erasures, 'erasures');
  const withdrawalsById = new Map(withdrawals.map((withdrawal) => [withdrawal?.withdrawalId, withdrawal]));
  const checkedErasures = erasures.map((erasure, index) => checkErasure(pack, erasure, index, byId, withdrawalsById, signed, madeAt));
  const bound = new Set(checkedErasures.flatMap((erasure) => erasure.bound));
  const boundWithdrawals = new Set(checkedErasures.flatMap((erasure) => erasure.boundWithdrawals));
  for (const [index, record] of records.entries()) {
    if (checkedRecords[index].erased && !bound.has(record.recordId)) fail(`${checkedRecords[index].position}: values of it were erased, yet no erasure in the pack binds its evidence without them to its proof hash: the evidence was altered`);
  }
  const entries = [
    ...checkedRecords,
    ...withdrawals.map((withdrawal, index) => checkWithdrawal(pack, withdrawal, index, byId, boundWithdrawals, signed, madeAt)),
    ...guardianDecisions.map((decision, index) => checkGuardianDecision(pack, decision, index, byId, decided, signed, madeAt)),
    ...checkedErasures,
  ];
  const onSignature = entries.filter((entry) => entry.by === 'signature');
  const verdict = onSignature.length === 0 ? 'VALID' : 'COMPLETE BUT NOT YET CHECKPOINTED';
  const proven = entries.length - onSignature.length;
  const lines = [
    // Without the service's keys nothing shows who made the pack: the verdict says on what it rests, and the tenant's name is the pack's own claim.
    keysFile
      ? `${verdict}: evidence pack of principal ${pack.principalHash.slice(0, 12)}… at ${pack.tenant.name} (${pack.tenant.tenantId}): ${records.length} record(s), ${withdrawals.length} withdrawal(s), ${guardianDecisions.length > 0 ? `${guardianDecisions.length} guardian decision(s), ` : ''}${notices.size} notice text(s).`
      : `${verdict} (on the pack's own keys only): evidence pack of principal ${pack.principalHash.slice(0, 12)}… that names its tenant ${JSON.stringify(pack.tenant.name)} (${pack.tenant.tenantId}), which only the service's keys can confirm: ${records.length} record(s), ${withdrawals.length} withdrawal(s), ${guardianDecisions.length > 0 ? `${guardianDecisions.length} guardian decision(s), ` : ''}${notices.size} notice text(s).`,
    `Signed as a whole by the evidence log's key ${signer.kid} (${signer.alg}) when it was made, ${pack.generatedAt}: nothing in it was changed since.`,
    keysSaid(keysFile, keysName),
    `Every hash, notice text and receipt checks; no withdrawal${guardianDecisions.length > 0 ? ' or guardian decision' : ''} predates its record and no entry postdates the pack; ${plural(proven, 'entry is', 'entries are')} in the tenant's log${signed ? ` of size ${signed.treeSize}, signed ${signed.signedAt}, consistent with the latest checkpoint of size ${signed.latest.treeSize}` : ''}.`,
    ...entries.map((entry) =>
      entry.by === 'checkpoint'
        ? `${entry.position}, ${entry.at}: in the signed checkpoint of size ${signed.treeSize}, leaf ${entry.leafIndex}.`
        : `${entry.position}, ${entry.at}: on the pack's signature alone, as of ${pack.generatedAt}: no signed checkpoint covered it yet, so its place in the log is not yet provable.`,
    ),
    ...checkedErasures.map((erasure) => erasure.said),
    ...(onSignature.length === 0
      ? []
      : [`${plural(onSignature.length, 'entry rests', 'entries rest')} on the pack's signature alone: the service vouched for them when it made the pack. Make the pack again after the next checkpoint (seconds to a minute later) for one that is VALID.`]),
  ];
  return { text: lines.join('\n'), exitCode: onSignature.length === 0 ? 0 : exitNotCheckpointed };
};

runVerifier({
  usage: 'node scripts/verify-evidence-pack.mjs pack.json [keys.json]\n  keys.json: the service\'s keys, fetched from it (GET /api/v1/consent/log/keys)\n  exit 0 VALID, 3 COMPLETE BUT NOT YET CHECKPOINTED, 1 INVALID, 2 usage',
  accepts: (count) => count === 1 || count === 2,
  check: ([pack, keys]) => check(packOf(pack.text, pack.name), keys && parseJson(keys.text, keys.name), keys ? keys.name : "the pack's keys"),
});
