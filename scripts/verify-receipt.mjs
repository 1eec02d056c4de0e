#!/usr/bin/env node
/**
 * Offline verifier of a consent receipt, of a grievance's closure receipt, and of one checkpoint
 * of a tenant's log against another: needs Node.js 20+ and nothing else (no install, no network,
 * no service code), so a data principal, an auditor, the Data Protection Board or a tenant's own
 * systems can run it.
 *
 *   node scripts/verify-receipt.mjs receipt.jws proof.json keys.json
 *   node scripts/verify-receipt.mjs --closure closure.jws answer.json keys.json
 *   node scripts/verify-receipt.mjs consistency kept.json new.json keys.json [proof.json]
 *
 * receipt.jws  the receipt returned when the consent was recorded (compact JWS)
 * proof.json   GET /api/v1/consent/records/:id/proof (the { data } body or the bare data object)
 * closure.jws  the closure receipt mailed with a grievance's answer (compact JWS)
 * answer.json  the request as its link shows it (GET /api/v1/rights/requests/public/:token) or as
 *              the tenant's GET /api/v1/rights/requests/:id shows it: its `closure` section
 * keys.json    GET /api/v1/consent/log/keys (JWKS); obtain it independently of the other files
 * kept.json    the checkpoint you kept: a log.checkpoint webhook event (envelope or data), the body
 *              of GET /api/v1/consent/log/checkpoint, or the bare note text
 * new.json     a later checkpoint, in any of those forms
 * proof.json   (consistency) GET /api/v1/consent/log/consistency?from=<kept size>&to=<new size>;
 *              optional when new.json is a log.checkpoint event whose previousTreeSize is the kept
 *              size (its consistencyProof is used)
 *
 * A consent receipt: signed by a listed key, naming this record, proof hash and (proof formats 3 and 4)
 * attribution; the canonical evidence hashes to that proof hash (or, for a record whose values
 * retention erased, its external id, user agent or IP address and in format 4 its salt, the logged erasure in proof.json
 * binds the evidence shown to that proof hash, and is itself a leaf of the same signed checkpoint). A closure receipt: signed by a
 * listed key, naming the logged resolution (request, type, outcome, time, tenant) whose canonical
 * text hashes to its `dh`; the answer in answer.json must be that request's, with the same outcome,
 * and its response text must hash to the logged responseHash. Either way the hash must then be a leaf of the tenant's RFC 9162 Merkle
 * log, and the root it proves the one in a checkpoint note signed by a listed key. Consistency:
 * both notes signed by a listed key, of the same log, and the new tree extends the kept one (RFC
 * 9162 §2.1.4): nothing the kept checkpoint covered was changed, removed or rolled back.
 * Prints VALID (or CONSISTENT) and exits 0, or INVALID: <reason> and exits 1; exit 2 on a usage error.
 * The checks themselves are in evidence-checks.mjs, shared with verify-evidence-pack.mjs.
 */
import {
  bindingProblem,
  boundFields,
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
} from './evidence-checks.mjs';

/** That `leafData` (32 bytes) is leaf `log.leafIndex` of tenant `tenantId`'s log, under a checkpoint signed by a listed key. */
const checkInLog = (leafData, log, keys, tenantId, what) => {
  if (!log) fail('the proof has no log section');
  if (log.status !== 'INTEGRATED') fail(`the ${what} is not yet in a signed checkpoint (status ${log.status}); try again in a minute`);
  const path = Array.isArray(log.inclusionProof) ? log.inclusionProof.map((node) => hexBytes(node, 'an inclusion proof node')) : fail('the inclusion proof is missing');
  const root = inclusionRoot(log.leafIndex, log.treeSize, leafHash(leafData), path);
  if (!root || !root.equals(hexBytes(log.rootHash, 'rootHash'))) fail(`the inclusion proof does not place the ${what} at leaf ${log.leafIndex} of the tree of size ${log.treeSize}`);
  const checkpoint = openCheckpoint(log.checkpoint?.note, keys, 'keys.json');
  if (checkpoint.origin !== logOrigin(tenantId)) fail(`the checkpoint is of log ${checkpoint.origin}, not of tenant ${tenantId}'s`);
  if (checkpoint.treeSize !== log.treeSize || !checkpoint.rootHash.equals(root)) fail('the signed checkpoint is for a different tree size or root than the proof');
  return `leaf ${log.leafIndex} of the tenant's log of size ${log.treeSize}, signed ${log.checkpoint.signedAt}`;
};

const fieldWords = { externalId: 'external id', userAgent: 'user agent', ipAddress: 'IP address', salt: 'salt' };
const fieldsSaid = (fields) => {
  const words = fields.map((field) => fieldWords[field] ?? field);
  return `its ${words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words[0]} ${words.length > 1 ? 'were' : 'was'}`;
};

/**
 * A record whose values retention erased (its external id, user agent, IP address; format 4 its salt): its evidence
 * shows each as `{ sha256 }` and stands for the proof hash only by the binding the logged
 * retention.erased holds. The erasure as logged must hash to its leaf, be this tenant's erasure of
 * this principal naming this record, and bind this proof hash, only erasable fields, each value's
 * SHA-256 as shown and the SHA-256 of the evidence shown; its inclusion is checked against the
 * record's checkpoint (the proof gives both against one). `externalIdErasure`: a proof saved before
 * user agents and IP addresses were erased.
 */
const checkErasure = (proof, payload, keys, tenantId) => {
  const erasure = proof.erasure ?? proof.externalIdErasure;
  if (erasure?.document === undefined || erasure.log === undefined) fail('the canonical evidence shows erased values, yet the proof names no erasure that binds them: the evidence was altered');
  const hash = hexBytes(erasure.document.hash, "the erasure's hash");
  if (typeof erasure.document.canonical !== 'string' || !sha256(Buffer.from(erasure.document.canonical, 'utf8')).equals(hash)) fail('the logged erasure does not hash to its hash: the erasure was altered');
  const document = JSON.parse(erasure.document.canonical);
  if (canonicalJson(document) !== erasure.document.canonical) fail('the logged erasure is not in RFC 8785 form');
  if (document.kind !== 'document' || document.documentType !== 'retention.erased' || document.tenantId !== tenantId || document.documentId !== erasure.document.documentId) fail(`the erasure is not a retention.erased of tenant ${tenantId}`);
  const content = document.content ?? {};
  if (document.subjectId !== `retention:${payload.dataPrincipalHash}` || content.identifierHash !== payload.dataPrincipalHash) fail("the erasure erased another principal's data");
  const binding = recordBindingsOf(content).find((entry) => entry?.recordId === proof.recordId);
  if (!binding || !Array.isArray(content.records) || !content.records.includes(proof.recordId)) fail(`the erasure binds no evidence of record ${proof.recordId}`);
  if (binding.proofHash !== proof.proofHash) fail(`the erasure binds record ${proof.recordId} to proof hash ${binding.proofHash}, not ${proof.proofHash}`);
  const problem = bindingProblem('record', payload, sha256(Buffer.from(proof.canonicalPayload, 'utf8')).toString('hex'), proof.recordId, proof.proofHash, binding);
  if (problem) fail(`the evidence without its erased values is not the evidence the erasure bound to the proof hash: ${problem}`);
  checkInLog(hash, { ...proof.log, ...erasure.log }, keys, tenantId, 'erasure');
  return `; ${fieldsSaid(boundFields('record', binding))} erased on ${document.at} by the retention run ${content.runId}, bound by log entry ${erasure.log.leafIndex}`;
};

const checkConsent = (jws, proofFile, keysFile) => {
  const keys = jwksKeys(keysFile, 'keys.json');
  const proof = proofFile?.data ?? proofFile;
  const claims = receiptClaims(jws, keys, 'keys.json', 'consent-receipt+jwt');
  if (claims.rid !== proof.recordId) fail(`the receipt is for record ${claims.rid}, the proof for ${proof.recordId}`);
  if (claims.ph !== proof.proofHash) fail('the receipt names a different proof hash than the proof');
  const proofHash = hexBytes(proof.proofHash, 'proofHash');
  if (typeof proof.canonicalPayload !== 'string') fail('the proof has no canonical evidence');
  const payload = JSON.parse(proof.canonicalPayload);
  // Values erased by retention stand for the proof hash by the logged erasure's binding (checkErasure).
  const erased = Object.values(payload).some(isErasedMarker);
  if (!erased && !sha256(Buffer.from(proof.canonicalPayload, 'utf8')).equals(proofHash)) {
    fail('the canonical evidence does not hash to the proof hash: the evidence was altered');
  }
  if (payload.recordId !== proof.recordId || payload.tenantId !== claims.tid) fail(`the evidence is of record ${payload.recordId} of tenant ${payload.tenantId}`);
  // Proof format 3 and 4 records state their attribution in the evidence, and their receipt names it (att).
  const attribution = payload.attribution ?? null;
  if ((claims.att ?? null) !== attribution) fail(`the receipt names attribution ${claims.att ?? 'none'}, the evidence ${attribution ?? 'none'}`);
  const where = checkInLog(proofHash, proof.log, keys, claims.tid, 'record');
  return `VALID: record ${claims.rid}${attribution ? ` (attribution ${attribution})` : ''} is ${where}${erased ? checkErasure(proof, payload, keys, claims.tid) : ''}`;
};

/**
 * The answer as the file shows it against what the receipt and the log hold: the same request,
 * type, time and outcome, and a response whose SHA-256 is the logged responseHash (the log holds
 * the hash, the request the words). Without this an answer file would pass with any outcome or text
 * beside a genuine receipt.
 */
const checkAnswer = (answer, claims, logged) => {
  const shown = { requestId: answer.requestId, type: answer.type, resolvedAt: answer.resolvedAt };
  const claimed = { requestId: claims.rid, type: claims.rt, resolvedAt: claims.rat };
  if (shown.requestId !== claimed.requestId) fail(`answer.json is the answer to request ${shown.requestId}, the receipt names request ${claimed.requestId}`);
  for (const name of ['type', 'resolvedAt']) if (shown[name] !== claimed[name]) fail(`answer.json says ${name} ${shown[name]}, the receipt ${claimed[name]}`);
  if (answer.outcome !== claims.out) fail(`answer.json says outcome ${answer.outcome}, the receipt and the logged resolution ${claims.out}: the answer was altered`);
  const responseHash = typeof answer.response === 'string' && answer.response !== '' ? sha256(Buffer.from(answer.response, 'utf8')).toString('hex') : null;
  if (responseHash !== (logged.content?.responseHash ?? null)) fail("the response in answer.json does not hash to the responseHash the logged resolution holds: the answer's text was altered");
};

/** A grievance's closure receipt against the logged resolution it names, and the answer against both. */
const checkClosure = (jws, answerFile, keysFile) => {
  const keys = jwksKeys(keysFile, 'keys.json');
  const answer = answerFile?.data ?? answerFile;
  const closure = answer?.closure ?? fail('answer.json has no closure section (is the request a resolved grievance?)');
  const claims = receiptClaims(jws, keys, 'keys.json', 'rights-closure+jwt');
  const documentHash = hexBytes(claims.dh, "the receipt's document hash");
  const canonical = closure.document?.canonical;
  if (typeof canonical !== 'string' || !sha256(Buffer.from(canonical, 'utf8')).equals(documentHash)) fail("the logged resolution does not hash to the receipt's document hash: it was altered, or is another one");
  const logged = JSON.parse(canonical);
  const facts = { documentType: logged.documentType, tenantId: logged.tenantId, subjectId: logged.subjectId, type: logged.content?.type, outcome: logged.content?.outcome, resolvedAt: logged.content?.resolvedAt };
  const claimed = { documentType: 'rights.resolved', tenantId: claims.tid, subjectId: claims.rid, type: claims.rt, outcome: claims.out, resolvedAt: claims.rat };
  for (const [name, value] of Object.entries(claimed)) if (facts[name] !== value) fail(`the receipt says ${name} ${value}, the logged resolution ${facts[name]}`);
  checkAnswer(answer, claims, logged);
  const where = checkInLog(documentHash, closure.log, keys, claims.tid, 'resolution');
  return `VALID: ${claims.rt.toLowerCase()} ${claims.rid} was closed ${claims.out} at ${claims.rat}; its resolution is ${where}`;
};

/** A checkpoint in any of the forms the service hands out: an event envelope, its data, the API's checkpoint, or the note. */
const checkpointIn = (input, name) => {
  const value = input?.data?.data ?? input?.data ?? input;
  const note = typeof value === 'string' ? value : value?.note;
  return typeof note === 'string' ? { note, previousTreeSize: value?.previousTreeSize, consistencyProof: value?.consistencyProof } : fail(`${name} holds no checkpoint note`);
};

/** That the log of a new checkpoint extends the one a tenant kept (a witness's check). */
const checkConsistency = (keptInput, nextInput, keysFile, proofFile) => {
  const keys = jwksKeys(keysFile, 'keys.json');
  const kept = openCheckpoint(checkpointIn(keptInput, 'kept.json').note, keys, 'keys.json');
  const next = checkpointIn(nextInput, 'new.json');
  const later = openCheckpoint(next.note, keys, 'keys.json');
  if (kept.origin !== later.origin) fail(`the checkpoints are of different logs (${kept.origin}, ${later.origin})`);
  if (later.treeSize < kept.treeSize) fail(`the new checkpoint (size ${later.treeSize}) is smaller than the one kept (size ${kept.treeSize}): the log was rolled back`);
  const given = proofFile?.data ?? proofFile;
  let proofNodes;
  if (given !== undefined) {
    if (given.from !== kept.treeSize || given.to !== later.treeSize) fail(`proof.json is from ${given.from} to ${given.to}, not from ${kept.treeSize} to ${later.treeSize}`);
    proofNodes = given.proof;
  } else if (next.previousTreeSize === kept.treeSize) {
    proofNodes = next.consistencyProof;
  } else {
    fail(`new.json follows size ${next.previousTreeSize ?? '(unknown)'}, not the kept size ${kept.treeSize}: fetch GET /api/v1/consent/log/consistency?from=${kept.treeSize}&to=${later.treeSize} and pass it as proof.json`);
  }
  const path = Array.isArray(proofNodes) ? proofNodes.map((node) => hexBytes(node, 'a consistency proof node')) : fail('the consistency proof is missing');
  if (!consistencyHolds(kept.treeSize, later.treeSize, kept.rootHash, later.rootHash, path)) {
    fail(`the log of size ${later.treeSize} does not extend the one of size ${kept.treeSize} you kept: it was rewritten or rolled back`);
  }
  return `CONSISTENT: ${later.origin} of size ${later.treeSize} extends the checkpoint of size ${kept.treeSize}; keep the new note`;
};

/** A kept or new checkpoint may be the bare note text. */
const noteOrJson = (text, name) => (text.trimStart().startsWith('{') ? parseJson(text, name) : text);

runVerifier({
  usage:
    'node scripts/verify-receipt.mjs receipt.jws proof.json keys.json\n       node scripts/verify-receipt.mjs --closure closure.jws answer.json keys.json\n       node scripts/verify-receipt.mjs consistency kept.json new.json keys.json [proof.json]',
  flags: ['--closure', 'consistency'],
  accepts: (count, switches) => (switches.has('consistency') ? count === 3 || count === 4 : switches.size <= 1 && count === 3),
  check: ([first, second, keys, proof], switches) => {
    if (switches.has('consistency')) {
      return checkConsistency(noteOrJson(first.text, 'kept.json'), noteOrJson(second.text, 'new.json'), parseJson(keys.text, 'keys.json'), proof && parseJson(proof.text, 'proof.json'));
    }
    return switches.has('--closure')
      ? checkClosure(first.text, parseJson(second.text, 'answer.json'), parseJson(keys.text, 'keys.json'))
      : checkConsent(first.text, parseJson(second.text, 'proof.json'), parseJson(keys.text, 'keys.json'));
  },
});
