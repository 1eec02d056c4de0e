/**
 * The checks the offline verifiers share (verify-receipt.mjs, verify-evidence-pack.mjs): Node.js
 * 20+ and node:crypto only, no install, no network, no service code, so an auditor can read all of
 * it. The note rules (c2sp.org/signed-note, tlog-checkpoint) repeat shared/evidence/checkpoint.ts
 * and the Merkle rules (RFC 9162) shared/evidence/merkle.ts: change them together. The canonical
 * form (RFC 8785) is not repeated: it is the service's own `canonicalize` package, copied unchanged
 * into vendor/canonicalize (see its SOURCE.md). Signatures are checked by node:crypto.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import canonicalize from './vendor/canonicalize/canonicalize.cjs';

/** A failed check: its message is what the verifier prints after INVALID. */
export class Invalid extends Error {}
export const fail = (reason) => {
  throw new Invalid(reason);
};

/** Runs a check, naming `position` in front of its failure. */
export const at = (position, check) => {
  try {
    return check();
  } catch (error) {
    if (error instanceof Invalid) fail(`${position}: ${error.message}`);
    throw error;
  }
};

export const sha256 = (...parts) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest();
const keyOf = (jwk) => createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, ...(jwk.y ? { y: jwk.y } : {}) }, format: 'jwk' });
const isEd25519 = (jwk) => jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
const isP256 = (jwk) => jwk.kty === 'EC' && jwk.crv === 'P-256';
export const hexBytes = (value, what) => (typeof value === 'string' && /^([0-9a-f]{2}){32}$/.test(value) ? Buffer.from(value, 'hex') : fail(`${what} is not 32 bytes of lowercase hex`));
const canonicalBase64 = (text, alphabet) => {
  const bytes = Buffer.from(text, alphabet);
  return alphabet === 'base64url' ? /^[\w-]*$/.test(text) && bytes.toString(alphabet) === text && bytes : /^[A-Za-z0-9+/]*={0,2}$/.test(text) && bytes.toString(alphabet) === text && bytes;
};

/** The log's origin line for a tenant (shared/evidence/checkpoint.ts logOrigin). */
export const logOrigin = (tenantId) => `consent-service/log/${tenantId}`;

/** RFC 9162 §2.1.1 leaf hash of an entry's 32-byte hash. */
export const leafHash = (data) => sha256(Buffer.from([0]), data);
const nodeHash = (left, right) => sha256(Buffer.from([1]), left, right);

const maxDepth = 64;
/** Refuses a value nested deeper than `maxDepth` (the canonicaliser recurses, and a hostile file must not overflow the stack). */
const withinDepth = (value, depth = 0) => {
  if (value === null || typeof value !== 'object') return;
  if (depth >= maxDepth) fail(`a value is nested more than ${maxDepth} levels deep`);
  for (const inner of Object.values(value)) withinDepth(inner, depth + 1);
};

/** RFC 8785 (JCS) canonical JSON, written by the very implementation the service uses. */
export const canonicalJson = (value) => {
  withinDepth(value);
  return canonicalize(value);
};

/** SHA-256 (hex) of a value's canonical JSON: how the service hashes evidence. */
export const canonicalHash = (value) => sha256(Buffer.from(canonicalJson(value), 'utf8')).toString('hex');

/**
 * A compact JWS (RFC 7515) of type `typ` whose signature verifies with the JWKS key its header
 * names (EdDSA over Ed25519, ES256 over P-256, by node:crypto): its header and payload bytes.
 * `detached`: the payload's bytes, for a JWS with detached content (Appendix F, `header..sig`),
 * which must then leave its payload out. Failures name `what`; a signature that does not verify
 * fails with `altered`.
 */
export const verifiedJws = (jws, keys, keysName, { typ, what, altered, detached }) => {
  if (typeof jws !== 'string') fail(`${what} is not a compact JWS`);
  const parts = jws.trim().split('.');
  if (parts.length !== 3) fail(`${what} is not a compact JWS`);
  if (detached !== undefined && parts[1] !== '') fail(`${what} carries a payload: it must be detached (RFC 7515 Appendix F), the pack itself being what it signs`);
  const encodedPayload = detached === undefined ? parts[1] : Buffer.from(detached).toString('base64url');
  const [header, payload, signature] = [parts[0], encodedPayload, parts[2]].map((part) => canonicalBase64(part, 'base64url') || fail(`${what} is not base64url`));
  const parsed = parseJson(header.toString('utf8'), `${what}'s header`);
  const protectedHeader = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : fail(`${what}'s header is not a JSON object`);
  const { alg, kid, typ: type } = protectedHeader;
  // The explicit type (RFC 8725 §3.11): a closure receipt must not pass for a consent receipt, nor either for a pack's signature.
  if (type !== typ) fail(`${what} is of type ${type}, not ${typ}`);
  if (Object.hasOwn(protectedHeader, 'crit')) fail(`${what} names critical header parameters this verifier does not know`);
  const jwk = keys.find((key) => key.kid === kid) ?? fail(`${what} names key ${kid}, which is not in ${keysName}`);
  const input = Buffer.from(`${parts[0]}.${encodedPayload}`, 'ascii');
  const valid =
    alg === 'EdDSA' && isEd25519(jwk) ? verify(null, input, keyOf(jwk), signature)
    : alg === 'ES256' && isP256(jwk) ? verify('sha256', input, { key: keyOf(jwk), dsaEncoding: 'ieee-p1363' }, signature)
    : fail(`${what}'s algorithm ${alg} does not match key ${kid}`);
  if (!valid) fail(altered);
  return { header: protectedHeader, payload };
};

/** The JWS's claims, if it is of type `typ` and its signature verifies with the JWKS key its header names. */
export const receiptClaims = (jws, keys, keysName, typ = 'consent-receipt+jwt') => {
  const { payload } = verifiedJws(jws, keys, keysName, { typ, what: 'the receipt', altered: 'the receipt signature does not verify: it was altered or not signed by this key' });
  return JSON.parse(payload.toString('utf8'));
};

/** RFC 9162 §2.1.3.2: the root that `proof` gives for leaf `index` in a tree of `size`, or undefined. */
export const inclusionRoot = (index, size, leaf, proof) => {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return undefined;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else {
      r = nodeHash(r, p);
    }
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 ? r : undefined;
};

/**
 * RFC 9162 §2.1.4.2: whether `proof` shows the tree of size `to` (root `toRoot`) extends the tree
 * of size `from` (root `fromRoot`). Equal sizes need an empty proof and equal roots.
 */
export const consistencyHolds = (from, to, fromRoot, toRoot, proof) => {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || from > to) return false;
  if (from === to) return proof.length === 0 && fromRoot.equals(toRoot);
  if (from === 0) return proof.length === 0 && fromRoot.equals(sha256());
  if (proof.length === 0) return false;
  // A power-of-two `from` is a complete subtree whose hash the proof leaves out: it is fromRoot.
  const path = (from & (from - 1)) === 0 ? [fromRoot, ...proof] : proof;
  let fn = from - 1;
  let sn = to - 1;
  while (fn % 2 === 1) [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  let [fr, sr] = [path[0], path[0]];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      [fr, sr] = [nodeHash(c, fr), nodeHash(c, sr)];
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else {
      sr = nodeHash(sr, c);
    }
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 && fr.equals(fromRoot) && sr.equals(toRoot);
};

/** A signed-note key ID: Ed25519 type 0x01 over name and raw key; ECDSA type 0x02 over the SPKI DER alone. */
const noteKeyId = (name, jwk) =>
  isEd25519(jwk) ? sha256(Buffer.from(`${name}\n`), Buffer.from([1]), Buffer.from(jwk.x, 'base64url')).subarray(0, 4)
  : isP256(jwk) ? sha256(keyOf(jwk).export({ format: 'der', type: 'spki' })).subarray(0, 4)
  : undefined;

/** The checkpoint of a note signed by a JWKS key (kid = the line's key name); a bad signature of a known key fails. */
export const openCheckpoint = (note, keys, keysName) => {
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
  if (!signedBy) fail(`the checkpoint note is not signed by any key in ${keysName}`);
  const [origin, size, root] = text.toString('utf8').split('\n');
  if (!origin || !/^(0|[1-9]\d*)$/.test(size ?? '') || !canonicalBase64(root ?? '', 'base64')) fail('the checkpoint body is malformed');
  return { origin, treeSize: Number(size), rootHash: Buffer.from(root, 'base64') };
};

/**
 * Retention's erasure (shared/consent/erasure-binding.ts, the same rule): once a principal's
 * consent lapsed for every purpose, these values of her evidence are shown as `{ "sha256": … }`,
 * and a logged retention.erased binds the evidence so shown to the hash the log holds. Nothing else
 * can be erased: a choice, a purpose, a time, a notice, an id the service gave. In evidence with a
 * `salt` (a record of proof format 4, a withdrawal with a reason made since) each value's hash is the SHA-256 of the RFC 8785 form of
 * { "salt": <salt>, "value": <value> } and the salt, erased with them, shows as its own SHA-256;
 * in older evidence it is the SHA-256 of the value.
 */
export const erasableFields = { record: ['externalId', 'userAgent', 'ipAddress', 'salt'], withdrawal: ['reason', 'salt'] };
const bindingKeys = { record: { id: 'recordId', hash: 'proofHash' }, withdrawal: { id: 'withdrawalId', hash: 'hash' } };

export const isErasedMarker = (value) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && typeof value.sha256 === 'string';

/** The fields a binding names as erased, in the order erasableFields lists them. */
export const boundFields = (kind, binding) => erasableFields[kind].filter((field) => typeof binding?.[`${field}Sha256`] === 'string');

/** A record's bindings in a logged erasure: `recordBindings`, or `externalIds` in erasures logged before user agents and IP addresses were erased. */
export const recordBindingsOf = (content) => [...(Array.isArray(content?.recordBindings) ? content.recordBindings : []), ...(Array.isArray(content?.externalIds) ? content.externalIds : [])];

/**
 * Why evidence shown with erased values (`shown`, whose RFC 8785 form hashes to `shownSha256`)
 * does not stand for entry `id` under `hash` by `binding`; undefined when it does. The binding names
 * this entry and hash, only erasable fields and at least one; each shows as its marker with that
 * SHA-256 and no other shows as erased; no salt shows in the clear beside them; and the evidence as
 * shown is what it bound.
 */
export const bindingProblem = (kind, shown, shownSha256, id, hash, binding) => {
  const keys = bindingKeys[kind];
  if (!binding || typeof binding !== 'object' || binding[keys.id] !== id || shown?.[keys.id] !== id) return `it binds another ${kind} than ${id}`;
  if (binding[keys.hash] !== hash) return `it binds ${kind} ${id} to another hash (${binding[keys.hash]}) than ${hash}`;
  const allowed = new Set([keys.id, keys.hash, 'evidenceSha256', ...erasableFields[kind].map((field) => `${field}Sha256`)]);
  const stray = Object.keys(binding).find((key) => !allowed.has(key));
  if (stray !== undefined) return `it names ${stray}, which is no field of a ${kind} that retention may erase`;
  if (boundFields(kind, binding).length === 0) return 'it binds no erased field';
  for (const field of erasableFields[kind]) {
    const bound = binding[`${field}Sha256`];
    if (bound === undefined && isErasedMarker(shown[field])) return `its ${field} shows as erased, and the binding does not name it`;
    if (bound !== undefined && !(isErasedMarker(shown[field]) && shown[field].sha256 === bound)) return `its ${field} is not the erased value the binding names`;
  }
  if (typeof shown.salt === 'string') return 'its salt shows in the clear beside erased values, which it keys: they were not erased';
  if (binding.evidenceSha256 !== shownSha256) return `the evidence shown is not the evidence it bound to ${kind === 'record' ? 'the proof hash' : 'its hash'}: the evidence was altered`;
  return undefined;
};

/** The keys of a JWKS document ({ "keys": [...] }). */
export const jwksKeys = (jwks, name) => (Array.isArray(jwks?.keys) ? jwks.keys : fail(`${name} is not a JWKS ({ "keys": [...] })`));

/**
 * Runs a verifier from the command line: reads the files named on it, hands their text (and the
 * leading `flags` given) to `check`, prints what it returns (text, exit 0; or { text, exitCode })
 * or INVALID: <reason> (exit 1); exit 2 on a usage error or an unreadable file.
 */
export const runVerifier = ({ usage, accepts, check, flags = [] }) => {
  const given = process.argv.slice(2);
  // Leading switches the verifier knows (--closure) are handed to `check`, not read as files.
  const switches = new Set(given.filter((arg, index) => index < flags.length && flags.includes(arg)));
  const args = given.slice(switches.size);
  if (!accepts(args.length, switches)) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  let inputs;
  try {
    inputs = args.map((file) => ({ name: file, text: readFileSync(file, 'utf8') }));
  } catch (error) {
    console.error(`cannot read ${error.path ?? 'an input'}: ${error.code ?? error.message}`);
    process.exit(2);
  }
  try {
    const result = check(inputs, switches);
    console.log(typeof result === 'string' ? result : result.text);
    if (typeof result !== 'string') process.exitCode = result.exitCode;
  } catch (error) {
    console.log(`INVALID: ${error instanceof Invalid ? error.message : `unreadable input (${error.message})`}`);
    process.exit(1);
  }
};

/** JSON.parse, failing with the file's name. */
export const parseJson = (text, name) => {
  try {
    return JSON.parse(text);
  } catch {
    return fail(`${name} is not JSON`);
  }
};
