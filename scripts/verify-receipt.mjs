#!/usr/bin/env node
/**
 * Offline verifier of a consent receipt, and of one checkpoint of a tenant's log against another:
 * needs Node.js 20+ and nothing else (no install, no network, no service code), so a data
 * principal, an auditor, the Data Protection Board or a tenant's own systems can run it.
 *
 *   node scripts/verify-receipt.mjs receipt.jws proof.json keys.json
 *
 * receipt.jws  the receipt returned when the consent was recorded (compact JWS)
 * proof.json   GET /api/v1/consent/records/:id/proof (the { data } body or the bare data object)
 * keys.json    GET /api/v1/consent/log/keys (JWKS); obtain it independently of proof.json
 *
 * Checks that the receipt is signed by a listed key and names this record and proof hash, that the
 * canonical evidence hashes to that proof hash, that the record is a leaf of the tenant's RFC 9162
 * Merkle log, and that the root it proves is the one in a checkpoint note signed by a listed key.
 *
 *   node scripts/verify-receipt.mjs consistency kept.json new.json keys.json [proof.json]
 *
 * kept.json    the checkpoint you kept: a log.checkpoint webhook event (envelope or data), the body
 *              of GET /api/v1/consent/log/checkpoint, or the bare note text
 * new.json     a later checkpoint, in any of those forms
 * proof.json   GET /api/v1/consent/log/consistency?from=<kept size>&to=<new size>; optional when
 *              new.json is a log.checkpoint event whose previousTreeSize is the kept size (its
 *              consistencyProof is used)
 *
 * Checks that both notes are signed by a listed key, are of the same log, and that the new tree
 * extends the kept one (RFC 9162 §2.1.4 consistency proof): nothing the kept checkpoint covered
 * was changed, removed or rolled back. Keep the new note afterwards.
 *
 * Prints VALID (CONSISTENT) and exits 0, or INVALID: <reason> and exits 1; exit 2 on a usage error.
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

/** The JWS's claims, if its signature verifies with the JWKS key its header names. */
const receiptClaims = (jws, keys) => {
  const parts = jws.trim().split('.');
  if (parts.length !== 3) fail('the receipt is not a compact JWS');
  const [header, payload, signature] = parts.map((part) => canonicalBase64(part, 'base64url') || fail('the receipt is not base64url'));
  const { alg, kid } = JSON.parse(header.toString('utf8'));
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

const check = (jws, proofFile, keysFile) => {
  const keys = Array.isArray(keysFile?.keys) ? keysFile.keys : fail('keys.json is not a JWKS ({ "keys": [...] })');
  const proof = proofFile?.data ?? proofFile;
  const claims = receiptClaims(jws, keys);
  if (claims.rid !== proof.recordId) fail(`the receipt is for record ${claims.rid}, the proof for ${proof.recordId}`);
  if (claims.ph !== proof.proofHash) fail('the receipt names a different proof hash than the proof');
  const proofHash = hexBytes(proof.proofHash, 'proofHash');
  if (typeof proof.canonicalPayload !== 'string' || !sha256(Buffer.from(proof.canonicalPayload, 'utf8')).equals(proofHash)) {
    fail('the canonical evidence does not hash to the proof hash: the evidence was altered');
  }
  const log = proof.log ?? fail('the proof has no log section');
  if (log.status !== 'INTEGRATED') fail(`the record is not yet in a signed checkpoint (status ${log.status}); try again in a minute`);
  const path = Array.isArray(log.inclusionProof) ? log.inclusionProof.map((node) => hexBytes(node, 'an inclusion proof node')) : fail('the inclusion proof is missing');
  const root = inclusionRoot(log.leafIndex, log.treeSize, sha256(Buffer.from([0]), proofHash), path);
  if (!root || !root.equals(hexBytes(log.rootHash, 'rootHash'))) fail(`the inclusion proof does not place the record at leaf ${log.leafIndex} of the tree of size ${log.treeSize}`);
  const checkpoint = openCheckpoint(log.checkpoint?.note, keys);
  if (checkpoint.origin !== `consent-service/log/${claims.tid}`) fail(`the checkpoint is of log ${checkpoint.origin}, not of tenant ${claims.tid}'s`);
  if (checkpoint.treeSize !== log.treeSize || !checkpoint.rootHash.equals(root)) fail('the signed checkpoint is for a different tree size or root than the proof');
  return `VALID: record ${claims.rid} is leaf ${log.leafIndex} of the tenant's log of size ${log.treeSize}, signed ${log.checkpoint.signedAt}`;
};

/** RFC 9162 §2.1.4.2: whether `proof` shows the tree of `to` (root `toRoot`) extends the tree of `from` (root `fromRoot`). */
const consistent = (from, to, fromRoot, toRoot, proof) => {
  if (from === to) return proof.length === 0 && fromRoot.equals(toRoot);
  if (from === 0 || from > to || proof.length === 0) return false;
  const node = (left, right) => sha256(Buffer.from([1]), left, right);
  // A power-of-two `from` is a complete subtree whose hash the proof omits: it is fromRoot.
  let odd = from;
  while (odd % 2 === 0) odd /= 2;
  const path = odd === 1 ? [fromRoot, ...proof] : proof;
  let fn = from - 1;
  let sn = to - 1;
  while (fn % 2 === 1) [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = node(c, fr);
      sr = node(c, sr);
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
    } else {
      sr = node(sr, c);
    }
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 && fr.equals(fromRoot) && sr.equals(toRoot);
};

/** A checkpoint in any of the forms the service hands out: an event envelope, its data, the API's checkpoint, or the note. */
const checkpointIn = (input, name) => {
  const value = input?.data?.data ?? input?.data ?? input;
  const note = typeof value === 'string' ? value : value?.note;
  return typeof note === 'string' ? { note, previousTreeSize: value?.previousTreeSize, consistencyProof: value?.consistencyProof } : fail(`${name} holds no checkpoint note`);
};

const checkConsistency = (keptInput, nextInput, keysFile, proofFile) => {
  const keys = Array.isArray(keysFile?.keys) ? keysFile.keys : fail('keys.json is not a JWKS ({ "keys": [...] })');
  const keptCheckpoint = checkpointIn(keptInput, 'kept.json');
  const next = checkpointIn(nextInput, 'new.json');
  const kept = openCheckpoint(keptCheckpoint.note, keys);
  const later = openCheckpoint(next.note, keys);
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
  if (!consistent(kept.treeSize, later.treeSize, kept.rootHash, later.rootHash, path)) {
    fail(`the log of size ${later.treeSize} does not extend the one of size ${kept.treeSize} you kept: it was rewritten or rolled back`);
  }
  return `CONSISTENT: ${later.origin} of size ${later.treeSize} extends the checkpoint of size ${kept.treeSize}; keep the new note`;
};

const args = process.argv.slice(2);
const consistencyMode = args[0] === 'consistency';
const files = consistencyMode ? args.slice(1) : args;
if (consistencyMode ? files.length < 3 || files.length > 4 : files.length !== 3) {
  console.error('usage: node scripts/verify-receipt.mjs receipt.jws proof.json keys.json\n       node scripts/verify-receipt.mjs consistency kept.json new.json keys.json [proof.json]');
  process.exit(2);
}
let inputs;
try {
  inputs = files.map((file) => readFileSync(file, 'utf8'));
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
  // A kept or new checkpoint may be the bare note text.
  const noteOrJson = (text, name) => (text.trimStart().startsWith('{') ? json(text, name) : text);
  console.log(
    consistencyMode
      ? checkConsistency(noteOrJson(inputs[0], 'kept.json'), noteOrJson(inputs[1], 'new.json'), json(inputs[2], 'keys.json'), inputs[3] === undefined ? undefined : json(inputs[3], 'proof.json'))
      : check(inputs[0], json(inputs[1], 'proof.json'), json(inputs[2], 'keys.json')),
  );
} catch (error) {
  console.log(`INVALID: ${error instanceof Invalid ? error.message : `unreadable input (${error.message})`}`);
  process.exit(1);
}
