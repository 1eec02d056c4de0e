#!/usr/bin/env node
/**
 * Offline verifier of a consent receipt or a grievance's closure receipt: needs Node.js 20+ and
 * nothing else (no install, no network, no service code), so a data principal, an auditor or the
 * Data Protection Board can run it.
 *
 *   node scripts/verify-receipt.mjs receipt.jws proof.json keys.json
 *   node scripts/verify-receipt.mjs --closure closure.jws answer.json keys.json
 *
 * receipt.jws  the receipt returned when the consent was recorded (compact JWS)
 * proof.json   GET /api/v1/consent/records/:id/proof (the { data } body or the bare data object)
 * closure.jws  the closure receipt mailed with a grievance's answer (compact JWS)
 * answer.json  the request as its link shows it (GET /api/v1/rights/requests/public/:token) or as
 *              the tenant's GET /api/v1/rights/requests/:id shows it: its `closure` section
 * keys.json    GET /api/v1/consent/log/keys (JWKS); obtain it independently of the other files
 *
 * A consent receipt: signed by a listed key, naming this record, proof hash and (proof format 3)
 * attribution; the canonical evidence hashes to that proof hash. A closure receipt: signed by a
 * listed key, naming the logged resolution (request, type, outcome, time, tenant) whose canonical
 * text hashes to its `dh`. Either way the hash must then be a leaf of the tenant's RFC 9162 Merkle
 * log, and the root it proves the one in a checkpoint note signed by a listed key.
 * Prints VALID and exits 0, or INVALID: <reason> and exits 1; exit 2 on a usage error.
 * The checks themselves are in evidence-checks.mjs, shared with verify-evidence-pack.mjs.
 */
import { fail, hexBytes, inclusionRoot, jwksKeys, leafHash, logOrigin, openCheckpoint, parseJson, receiptClaims, runVerifier, sha256 } from './evidence-checks.mjs';

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

const checkConsent = (jws, proofFile, keysFile) => {
  const keys = jwksKeys(keysFile, 'keys.json');
  const proof = proofFile?.data ?? proofFile;
  const claims = receiptClaims(jws, keys, 'keys.json', 'consent-receipt+jwt');
  if (claims.rid !== proof.recordId) fail(`the receipt is for record ${claims.rid}, the proof for ${proof.recordId}`);
  if (claims.ph !== proof.proofHash) fail('the receipt names a different proof hash than the proof');
  const proofHash = hexBytes(proof.proofHash, 'proofHash');
  if (typeof proof.canonicalPayload !== 'string' || !sha256(Buffer.from(proof.canonicalPayload, 'utf8')).equals(proofHash)) {
    fail('the canonical evidence does not hash to the proof hash: the evidence was altered');
  }
  // Proof format 3 records state their attribution in the evidence, and their receipt names it (att).
  const attribution = JSON.parse(proof.canonicalPayload).attribution ?? null;
  if ((claims.att ?? null) !== attribution) fail(`the receipt names attribution ${claims.att ?? 'none'}, the evidence ${attribution ?? 'none'}`);
  return `VALID: record ${claims.rid}${attribution ? ` (attribution ${attribution})` : ''} is ${checkInLog(proofHash, proof.log, keys, claims.tid, 'record')}`;
};

/** A grievance's closure receipt against the logged resolution it names. */
const checkClosure = (jws, answerFile, keysFile) => {
  const keys = jwksKeys(keysFile, 'keys.json');
  const closure = (answerFile?.data ?? answerFile)?.closure ?? fail('answer.json has no closure section (is the request a resolved grievance?)');
  const claims = receiptClaims(jws, keys, 'keys.json', 'rights-closure+jwt');
  const documentHash = hexBytes(claims.dh, "the receipt's document hash");
  const canonical = closure.document?.canonical;
  if (typeof canonical !== 'string' || !sha256(Buffer.from(canonical, 'utf8')).equals(documentHash)) fail("the logged resolution does not hash to the receipt's document hash: it was altered, or is another one");
  const logged = JSON.parse(canonical);
  const facts = { documentType: logged.documentType, tenantId: logged.tenantId, subjectId: logged.subjectId, type: logged.content?.type, outcome: logged.content?.outcome, resolvedAt: logged.content?.resolvedAt };
  const claimed = { documentType: 'rights.resolved', tenantId: claims.tid, subjectId: claims.rid, type: claims.rt, outcome: claims.out, resolvedAt: claims.rat };
  for (const [name, value] of Object.entries(claimed)) if (facts[name] !== value) fail(`the receipt says ${name} ${value}, the logged resolution ${facts[name]}`);
  const where = checkInLog(documentHash, closure.log, keys, claims.tid, 'resolution');
  return `VALID: ${claims.rt.toLowerCase()} ${claims.rid} was closed ${claims.out} at ${claims.rat}; its resolution is ${where}`;
};

runVerifier({
  usage: 'node scripts/verify-receipt.mjs receipt.jws proof.json keys.json\n       node scripts/verify-receipt.mjs --closure closure.jws answer.json keys.json',
  flags: ['--closure'],
  accepts: (count) => count === 3,
  check: ([receipt, document, keys], switches) =>
    switches.has('--closure')
      ? checkClosure(receipt.text, parseJson(document.text, 'answer.json'), parseJson(keys.text, 'keys.json'))
      : checkConsent(receipt.text, parseJson(document.text, 'proof.json'), parseJson(keys.text, 'keys.json')),
});
