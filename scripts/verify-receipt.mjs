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
 * The note rules (c2sp.org/signed-note, tlog-checkpoint) repeat shared/evidence/checkpoint.ts.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

class Invalid extends Error {}
const fail = (reason) => {
  throw new Invalid(reason);
};
const sha256 = (...parts) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest();
const keyOf = (jwk) => createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, ...(jwk.y ? { y: jwk.y } : {}) }, format: 'jwk' });
const isEd25519 = (jwk) => jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
const isP256 = (jwk) => jwk.kty === 'EC' && jwk.crv === 'P-256';
const hexBytes = (value, what) => (typeof value === 'string' && /^([0-9a-f]{2}){32}$/.test(value) ? Buffer.from(value, 'hex') : fail(`${what} is not 32 bytes of lowercase hex`));
const canonicalBase64 = (text, alphabet) => {
  const bytes = Buffer.from(text, alphabet);
  return alphabet === 'base64url' ? /^[\w-]*$/.test(text) && bytes.toString(alphabet) === text && bytes : /^[A-Za-z0-9+/]*={0,2}$/.test(text) && bytes.toString(alphabet) === text && bytes;
};

/** The JWS's claims, if it is of type `typ` and its signature verifies with the JWKS key its header names. */
const receiptClaims = (jws, keys, typ) => {
  const parts = jws.trim().split('.');
  if (parts.length !== 3) fail('the receipt is not a compact JWS');
  const [header, payload, signature] = parts.map((part) => canonicalBase64(part, 'base64url') || fail('the receipt is not base64url'));
  const { alg, kid, typ: type } = JSON.parse(header.toString('utf8'));
  if (type !== typ) fail(`the receipt is of type ${type}, not ${typ}`);
  const jwk = keys.find((key) => key.kid === kid) ?? fail(`the receipt's key ${kid} is not in keys.json`);
  const input = Buffer.from(`${parts[0]}.${parts[1]}`, 'ascii');
  const valid =
    alg === 'EdDSA' && isEd25519(jwk) ? verify(null, input, keyOf(jwk), signature)
    : alg === 'ES256' && isP256(jwk) ? verify('sha256', input, { key: keyOf(jwk), dsaEncoding: 'ieee-p1363' }, signature)
    : fail(`the receipt's algorithm ${alg} does not match key ${kid}`);
  if (!valid) fail('the receipt signature does not verify: it was altered or not signed by this key');
  return JSON.parse(payload.toString('utf8'));
};

/** RFC 9162 §2.1.3.2: the root that `proof` gives for leaf `index` in a tree of `size`, or undefined. */
const inclusionRoot = (index, size, leaf, proof) => {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return undefined;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  const node = (left, right) => sha256(Buffer.from([1]), left, right);
  for (const p of proof) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = node(p, r);
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else {
      r = node(r, p);
    }
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 ? r : undefined;
};

/** A signed-note key ID: Ed25519 type 0x01 over name and raw key; ECDSA type 0x02 over the SPKI DER alone. */
const noteKeyId = (name, jwk) =>
  isEd25519(jwk) ? sha256(Buffer.from(`${name}\n`), Buffer.from([1]), Buffer.from(jwk.x, 'base64url')).subarray(0, 4)
  : isP256(jwk) ? sha256(keyOf(jwk).export({ format: 'der', type: 'spki' })).subarray(0, 4)
  : undefined;

/** The checkpoint of a note signed by a JWKS key (kid = the line's key name); a bad signature of a known key fails. */
const openCheckpoint = (note, keys) => {
  if (typeof note !== 'string' || !note.endsWith('\n') || [...note].some((c) => c < ' ' && c !== '\n')) fail('the checkpoint note is malformed');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) fail('the checkpoint note has no signatures');
  const text = Buffer.from(note.slice(0, split + 1), 'utf8');
  let signedBy;
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const [name, encoded, ...rest] = line.startsWith('\u2014 ') ? line.slice(2).split(' ') : [];
    const signature = encoded && canonicalBase64(encoded, 'base64');
    if (!name || !signature || signature.length < 5 || rest.length > 0) fail('the checkpoint note has a malformed signature line');
    const jwk = keys.find((key) => key.kid === name);
    if (!jwk || !noteKeyId(name, jwk)?.equals(signature.subarray(0, 4))) continue;
    const sig = signature.subarray(4);
    const valid = isEd25519(jwk) ? verify(null, text, keyOf(jwk), sig) : verify('sha256', text, { key: keyOf(jwk), dsaEncoding: 'der' }, sig);
    if (!valid) fail(`the checkpoint signature by ${name} does not verify: the note was altered`);
    signedBy ??= name;
  }
  if (!signedBy) fail('the checkpoint note is not signed by any key in keys.json');
  const [origin, size, root] = text.toString('utf8').split('\n');
  if (!origin || !/^(0|[1-9]\d*)$/.test(size ?? '') || !canonicalBase64(root ?? '', 'base64')) fail('the checkpoint body is malformed');
  return { origin, treeSize: Number(size), rootHash: Buffer.from(root, 'base64') };
};

/** That `leafData` (32 bytes) is leaf `log.leafIndex` of tenant `tenantId`'s log, under a checkpoint signed by a listed key. */
const checkInLog = (leafData, log, keys, tenantId, what) => {
  if (!log) fail('the proof has no log section');
  if (log.status !== 'INTEGRATED') fail(`the ${what} is not yet in a signed checkpoint (status ${log.status}); try again in a minute`);
  const path = Array.isArray(log.inclusionProof) ? log.inclusionProof.map((node) => hexBytes(node, 'an inclusion proof node')) : fail('the inclusion proof is missing');
  const root = inclusionRoot(log.leafIndex, log.treeSize, sha256(Buffer.from([0]), leafData), path);
  if (!root || !root.equals(hexBytes(log.rootHash, 'rootHash'))) fail(`the inclusion proof does not place the ${what} at leaf ${log.leafIndex} of the tree of size ${log.treeSize}`);
  const checkpoint = openCheckpoint(log.checkpoint?.note, keys);
  if (checkpoint.origin !== `consent-service/log/${tenantId}`) fail(`the checkpoint is of log ${checkpoint.origin}, not of tenant ${tenantId}'s`);
  if (checkpoint.treeSize !== log.treeSize || !checkpoint.rootHash.equals(root)) fail('the signed checkpoint is for a different tree size or root than the proof');
  return `leaf ${log.leafIndex} of the tenant's log of size ${log.treeSize}, signed ${log.checkpoint.signedAt}`;
};

const jwksOf = (keysFile) => (Array.isArray(keysFile?.keys) ? keysFile.keys : fail('keys.json is not a JWKS ({ "keys": [...] })'));

const checkConsent = (jws, proofFile, keysFile) => {
  const keys = jwksOf(keysFile);
  const proof = proofFile?.data ?? proofFile;
  const claims = receiptClaims(jws, keys, 'consent-receipt+jwt');
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
  const keys = jwksOf(keysFile);
  const closure = (answerFile?.data ?? answerFile)?.closure ?? fail('answer.json has no closure section (is the request a resolved grievance?)');
  const claims = receiptClaims(jws, keys, 'rights-closure+jwt');
  const documentHash = hexBytes(claims.dh, 'the receipt\'s document hash');
  const canonical = closure.document?.canonical;
  if (typeof canonical !== 'string' || !sha256(Buffer.from(canonical, 'utf8')).equals(documentHash)) fail('the logged resolution does not hash to the receipt\'s document hash: it was altered, or is another one');
  const logged = JSON.parse(canonical);
  const facts = { documentType: logged.documentType, tenantId: logged.tenantId, subjectId: logged.subjectId, type: logged.content?.type, outcome: logged.content?.outcome, resolvedAt: logged.content?.resolvedAt };
  const claimed = { documentType: 'rights.resolved', tenantId: claims.tid, subjectId: claims.rid, type: claims.rt, outcome: claims.out, resolvedAt: claims.rat };
  for (const [name, value] of Object.entries(claimed)) if (facts[name] !== value) fail(`the receipt says ${name} ${value}, the logged resolution ${facts[name]}`);
  const where = checkInLog(documentHash, closure.log, keys, claims.tid, 'resolution');
  return `VALID: ${claims.rt.toLowerCase()} ${claims.rid} was closed ${claims.out} at ${claims.rat}; its resolution is ${where}`;
};

const given = process.argv.slice(2);
const closure = given[0] === '--closure';
const args = closure ? given.slice(1) : given;
if (args.length !== 3) {
  console.error('usage: node scripts/verify-receipt.mjs receipt.jws proof.json keys.json\n       node scripts/verify-receipt.mjs --closure closure.jws answer.json keys.json');
  process.exit(2);
}
let inputs;
try {
  inputs = args.map((file) => readFileSync(file, 'utf8'));
} catch (error) {
  console.error(`cannot read ${error.path ?? 'an input'}: ${error.code ?? error.message}`);
  process.exit(2);
}
try {
  const json = (text, name) => {
    try {
      return JSON.parse(text);
    } catch {
      return fail(`${name} is not JSON`);
    }
  };
  console.log(closure ? checkClosure(inputs[0], json(inputs[1], 'answer.json'), json(inputs[2], 'keys.json')) : checkConsent(inputs[0], json(inputs[1], 'proof.json'), json(inputs[2], 'keys.json')));
} catch (error) {
  console.log(`INVALID: ${error instanceof Invalid ? error.message : `unreadable input (${error.message})`}`);
  process.exit(1);
}
