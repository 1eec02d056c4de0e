#!/usr/bin/env node
/**
 * Offline verifier of a consent receipt: needs Node.js 20+ and nothing else (no install, no
 * network, no service code), so a data principal, an auditor or the Data Protection Board can run it.
 *
 *   node scripts/verify-receipt.mjs receipt.jws proof.json keys.json
 *
 * receipt.jws  the receipt returned when the consent was recorded (compact JWS)
 * proof.json   GET /api/v1/consent/records/:id/proof (the { data } body or the bare data object)
 * keys.json    GET /api/v1/consent/log/keys (JWKS); obtain it independently of proof.json
 *
 * Checks that the receipt is signed by a listed key and names this record, proof hash and (proof
 * format 3) attribution, that the canonical evidence hashes to that proof hash, that the record is a leaf of the tenant's RFC 9162
 * Merkle log, and that the root it proves is the one in a checkpoint note signed by a listed key.
 * Prints VALID and exits 0, or INVALID: <reason> and exits 1; exit 2 on a usage error.
 * The checks themselves are in evidence-checks.mjs, shared with verify-evidence-pack.mjs.
 */
import { fail, hexBytes, inclusionRoot, jwksKeys, leafHash, logOrigin, openCheckpoint, parseJson, receiptClaims, runVerifier, sha256 } from './evidence-checks.mjs';

const check = (jws, proofFile, keysFile) => {
  const keys = jwksKeys(keysFile, 'keys.json');
  const proof = proofFile?.data ?? proofFile;
  const claims = receiptClaims(jws, keys, 'keys.json');
  if (claims.rid !== proof.recordId) fail(`the receipt is for record ${claims.rid}, the proof for ${proof.recordId}`);
  if (claims.ph !== proof.proofHash) fail('the receipt names a different proof hash than the proof');
  const proofHash = hexBytes(proof.proofHash, 'proofHash');
  if (typeof proof.canonicalPayload !== 'string' || !sha256(Buffer.from(proof.canonicalPayload, 'utf8')).equals(proofHash)) {
    fail('the canonical evidence does not hash to the proof hash: the evidence was altered');
  }
  // Proof format 3 records state their attribution in the evidence, and their receipt names it (att).
  const attribution = JSON.parse(proof.canonicalPayload).attribution ?? null;
  if ((claims.att ?? null) !== attribution) fail(`the receipt names attribution ${claims.att ?? 'none'}, the evidence ${attribution ?? 'none'}`);
  const log = proof.log ?? fail('the proof has no log section');
  if (log.status !== 'INTEGRATED') fail(`the record is not yet in a signed checkpoint (status ${log.status}); try again in a minute`);
  const path = Array.isArray(log.inclusionProof) ? log.inclusionProof.map((node) => hexBytes(node, 'an inclusion proof node')) : fail('the inclusion proof is missing');
  const root = inclusionRoot(log.leafIndex, log.treeSize, leafHash(proofHash), path);
  if (!root || !root.equals(hexBytes(log.rootHash, 'rootHash'))) fail(`the inclusion proof does not place the record at leaf ${log.leafIndex} of the tree of size ${log.treeSize}`);
  const checkpoint = openCheckpoint(log.checkpoint?.note, keys, 'keys.json');
  if (checkpoint.origin !== logOrigin(claims.tid)) fail(`the checkpoint is of log ${checkpoint.origin}, not of tenant ${claims.tid}'s`);
  if (checkpoint.treeSize !== log.treeSize || !checkpoint.rootHash.equals(root)) fail('the signed checkpoint is for a different tree size or root than the proof');
  return `VALID: record ${claims.rid}${attribution ? ` (attribution ${attribution})` : ''} is leaf ${log.leafIndex} of the tenant's log of size ${log.treeSize}, signed ${log.checkpoint.signedAt}`;
};

runVerifier({
  usage: 'node scripts/verify-receipt.mjs receipt.jws proof.json keys.json',
  accepts: (count) => count === 3,
  check: ([receipt, proof, keys]) => check(receipt.text, parseJson(proof.text, 'proof.json'), parseJson(keys.text, 'keys.json')),
});
