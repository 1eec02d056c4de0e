import { bindingProblem, boundFields, isErasedMarker, type RecordBinding } from '../../../shared/consent/erasure-binding';
import type { DataOf } from '../../../shared/http/api-types';

/**
 * Checks a record's proof in the browser with WebCrypto alone, as scripts/verify-receipt.mjs does
 * offline: the canonical evidence hashes to the proof hash; the record's leaf, with the inclusion
 * proof, gives the root (RFC 9162 §2.1.3.2); the checkpoint names that size and root; and the
 * checkpoint note is signed by a key of the JWKS (GET /consent/log/keys). Every step is listed.
 */
type Proof = DataOf<'consentProof'>;

export interface Check {
  label: string;
  ok: boolean;
  detail?: string;
}

export interface Verification {
  holds: boolean;
  checks: Check[];
  /** The first failed step, said plainly. */
  failure?: string;
  /** When the proof holds for a record whose values retention erased: which, when, by which run, bound by which log entry. */
  erasure?: string;
}

interface Jwk {
  kty: string;
  kid: string;
  crv?: string;
  x?: string;
  y?: string;
}

const subtle = () => crypto.subtle;
/** WebCrypto's key type, named without the DOM lib (the check also runs under Node in tests). */
type CryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
const sha256 = async (...parts: Uint8Array[]): Promise<Uint8Array> => {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return new Uint8Array(await subtle().digest('SHA-256', joined));
};
const hex = (bytes: Uint8Array) => [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
const fromHex = (text: string): Uint8Array | undefined =>
  /^([0-9a-f]{2}){32}$/.test(text) ? new Uint8Array(text.match(/../g)!.map((pair) => parseInt(pair, 16))) : undefined;
const fromBase64 = (text: string): Uint8Array | undefined => {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
};
const fromBase64Url = (text: string) => fromBase64(text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '='));
const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, index) => byte === b[index]);
const utf8 = (text: string) => new TextEncoder().encode(text);

/** RFC 9162 §2.1.3.2: the root the proof gives for leaf `index` of a tree of `size`, or undefined. */
export const inclusionRoot = async (index: number, size: number, leaf: Uint8Array, proof: Uint8Array[]): Promise<Uint8Array | undefined> => {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return undefined;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(new Uint8Array([1]), p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = fn / 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      r = await sha256(new Uint8Array([1]), r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : undefined;
};

/** An ECDSA DER signature (SEQUENCE of two INTEGERs) as WebCrypto's raw r||s. */
const derToRaw = (der: Uint8Array): Uint8Array | undefined => {
  if (der[0] !== 0x30) return undefined;
  let offset = der[1]! & 0x80 ? 2 + (der[1]! & 0x7f) : 2;
  const out = new Uint8Array(64);
  for (let part = 0; part < 2; part++) {
    if (der[offset] !== 0x02) return undefined;
    const length = der[offset + 1]!;
    let value = der.subarray(offset + 2, offset + 2 + length);
    while (value.length > 32 && value[0] === 0) value = value.subarray(1);
    if (value.length > 32) return undefined;
    out.set(value, part * 32 + 32 - value.length);
    offset += 2 + length;
  }
  return out;
};

/** The signed-note key ID (C2SP signed-note): Ed25519 0x01 over name and raw key; ECDSA 0x02 over the SPKI DER. */
const noteKeyId = async (name: string, jwk: Jwk, key: CryptoKey): Promise<Uint8Array | undefined> => {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && jwk.x) return (await sha256(utf8(`${name}\n`), new Uint8Array([1]), fromBase64Url(jwk.x) ?? new Uint8Array())).subarray(0, 4);
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return (await sha256(new Uint8Array(await subtle().exportKey('spki', key)))).subarray(0, 4);
  return undefined;
};

const importKey = async (jwk: Jwk): Promise<CryptoKey | undefined> => {
  try {
    if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return await subtle().importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, true, ['verify']);
    if (jwk.kty === 'EC' && jwk.crv === 'P-256') return await subtle().importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
  } catch {
    // This browser lacks the algorithm (Ed25519 arrived in WebCrypto in 2025): reported as not checked.
  }
  return undefined;
};

type NoteResult = { signedBy?: string; unsupported?: string; failure?: string; origin?: string; size?: number; root?: Uint8Array };

/** Opens a C2SP signed note: its checkpoint body and which listed key signed it. */
const openNote = async (note: string, keys: Jwk[]): Promise<NoteResult> => {
  const split = note.lastIndexOf('\n\n');
  if (!note.endsWith('\n') || split < 0) return { failure: 'the checkpoint note is malformed' };
  const text = note.slice(0, split + 1);
  const [origin, size, root] = text.split('\n');
  const rootBytes = fromBase64(root ?? '');
  if (!origin || !/^(0|[1-9]\d*)$/.test(size ?? '') || !rootBytes) return { failure: 'the checkpoint body is malformed' };
  const result: NoteResult = { origin, size: Number(size), root: rootBytes };
  for (const line of note.slice(split + 2, -1).split('\n')) {
    if (!line.startsWith('\u2014 ')) return { failure: 'the checkpoint note has a malformed signature line' };
    const [name, encoded] = line.slice(2).split(' ');
    const signature = fromBase64(encoded ?? '');
    const jwk = keys.find((key) => key.kid === name);
    if (!name || !signature || signature.length < 5 || !jwk) continue;
    const key = await importKey(jwk);
    if (!key) {
      result.unsupported = `${jwk.kty} ${jwk.crv ?? ''}`.trim();
      continue;
    }
    const id = await noteKeyId(name, jwk, key);
    if (!id || !equal(id, signature.subarray(0, 4))) continue;
    const raw = signature.subarray(4);
    const body = utf8(text);
    const valid =
      jwk.kty === 'OKP'
        ? await subtle().verify({ name: 'Ed25519' }, key, raw.slice(), body)
        : await (async () => {
            const p1363 = derToRaw(raw);
            return p1363 ? subtle().verify({ name: 'ECDSA', hash: 'SHA-256' }, key, p1363.slice(), body) : false;
          })();
    if (!valid) return { ...result, failure: `the checkpoint signature by ${name} does not verify: the note was altered` };
    result.signedBy ??= name;
  }
  return result;
};

/** The receipt's claims when its JWS signature verifies with the JWKS key its header names. */
const receiptCheck = async (jws: string, keys: Jwk[]): Promise<{ claims?: { rid?: string; ph?: string; att?: string }; failure?: string }> => {
  const parts = jws.split('.');
  if (parts.length !== 3) return { failure: 'the receipt is not a compact JWS' };
  const [header, payload, signature] = parts.map((part) => fromBase64Url(part));
  if (!header || !payload || !signature) return { failure: 'the receipt is not base64url' };
  const { alg, kid } = JSON.parse(new TextDecoder().decode(header)) as { alg?: string; kid?: string };
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk) return { failure: `the receipt's key ${kid} is not published` };
  const key = await importKey(jwk);
  if (!key) return { failure: `this browser cannot verify ${alg} signatures` };
  const input = utf8(`${parts[0]}.${parts[1]}`);
  const valid =
    alg === 'EdDSA' && jwk.kty === 'OKP'
      ? await subtle().verify({ name: 'Ed25519' }, key, signature.slice(), input)
      : alg === 'ES256' && jwk.kty === 'EC'
        ? await subtle().verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature.slice(), input)
        : false;
  if (!valid) return { failure: 'the receipt signature does not verify' };
  return { claims: JSON.parse(new TextDecoder().decode(payload)) as { rid?: string; ph?: string; att?: string } };
};

export const verifyProof = async (proof: Proof, keys: Jwk[] | undefined, tenantId: string): Promise<Verification> => {
  const checks: Check[] = [];
  const done = (failure?: string): Verification => ({ holds: failure === undefined, checks, ...(failure ? { failure } : {}) });
  const proofHash = fromHex(proof.proofHash);
  if (!proofHash) return done('The proof hash is not a SHA-256 value.');
  const recomputed = await sha256(utf8(proof.canonicalPayload));
  const payload = JSON.parse(proof.canonicalPayload) as Record<string, unknown> & { recordId?: string; tenantId?: string; dataPrincipalHash?: string; attribution?: string };
  // Values erased by retention: the evidence stands for the proof hash by the logged erasure's binding, checked below once the checkpoint is.
  const erased = showsErasedValues(payload);
  const erasure = erased ? await erasureBinding(proof, payload, hex(recomputed), tenantId) : undefined;
  if (erasure) {
    checks.push({ label: 'The evidence without its erased values is the evidence the logged erasure bound to the proof hash (SHA-256, computed in this browser)', ok: !erasure.failure, detail: hex(recomputed) });
    if (erasure.failure) return done(erasure.failure);
  } else {
    const hashOk = equal(recomputed, proofHash);
    checks.push({ label: 'The evidence hashes to the proof hash (SHA-256, computed in this browser)', ok: hashOk, detail: hex(recomputed) });
    if (!hashOk) return done('The evidence does not hash to the proof hash: the evidence was altered.');
  }

  const log = proof.log;
  if (log.status !== 'INTEGRATED' || log.leafIndex === null || !log.rootHash || !log.checkpoint) {
    return done('The record is not yet in a signed checkpoint of the log; try again in a minute.');
  }
  const path = log.inclusionProof.map(fromHex);
  if (path.some((node) => !node)) return done('The inclusion proof is malformed.');
  const leaf = await sha256(new Uint8Array([0]), proofHash);
  const root = await inclusionRoot(log.leafIndex, log.treeSize, leaf, path as Uint8Array[]);
  const rootHash = fromHex(log.rootHash);
  const inclusionOk = !!root && !!rootHash && equal(root, rootHash);
  checks.push({ label: `The inclusion proof places the record at leaf ${log.leafIndex} of the tree of size ${log.treeSize} (RFC 9162)`, ok: inclusionOk });
  if (!inclusionOk) return done(`The inclusion proof does not lead from the record to the root of the tree of size ${log.treeSize}.`);

  const checkpoint = log.checkpoint;
  const checkpointOk = checkpoint.treeSize === log.treeSize && checkpoint.rootHash === log.rootHash;
  checks.push({ label: 'The signed checkpoint is for the same size and root', ok: checkpointOk });
  if (!checkpointOk) return done('The signed checkpoint is for a different tree size or root than the proof.');

  const note = await openNote(checkpoint.note, keys ?? []);
  if (note.failure) {
    checks.push({ label: 'The checkpoint note', ok: false, detail: note.failure });
    return done(`The checkpoint note fails: ${note.failure}.`);
  }
  const noteOk = note.origin === `consent-service/log/${tenantId}` && note.size === log.treeSize && !!note.root && equal(note.root, root!);
  checks.push({ label: "The checkpoint note names this tenant's log, the same size and the same root", ok: noteOk });
  if (!noteOk) return done("The checkpoint note names another log, size or root than the proof.");

  if (note.signedBy) {
    checks.push({ label: `The checkpoint note's signature verifies with the published key ${note.signedBy}`, ok: true });
  } else {
    const why = !keys ? 'the public keys could not be read' : note.unsupported ? `this browser cannot verify ${note.unsupported} signatures` : 'no published key signed it';
    checks.push({ label: "The checkpoint note's signature", ok: false, detail: why });
    return done(`The checkpoint note's signature could not be checked: ${why}.`);
  }

  if (erasure) {
    const erasureLog = proof.erasure!.log;
    if (erasureLog.status !== 'INTEGRATED' || erasureLog.leafIndex === null) return done('The erasure of its values is pending: it is not yet in the signed checkpoint; try again in a minute.');
    const erasurePath = erasureLog.inclusionProof.map(fromHex);
    const erasureRoot = erasurePath.some((node) => !node) ? undefined : await inclusionRoot(erasureLog.leafIndex, log.treeSize, await sha256(new Uint8Array([0]), erasure.hash!), erasurePath as Uint8Array[]);
    const erasureOk = !!erasureRoot && equal(erasureRoot, root!);
    checks.push({ label: `The inclusion proof places the logged erasure at leaf ${erasureLog.leafIndex} of the same signed tree (RFC 9162)`, ok: erasureOk });
    if (!erasureOk) return done(`The inclusion proof does not lead from the logged erasure to the root of the signed tree of size ${log.treeSize}.`);
  }

  const receipt = await receiptCheck(proof.receipt, keys ?? []);
  // Proof formats 3 and 4: the evidence states the attribution, and the receipt must name the same.
  const attribution = payload.attribution ?? null;
  const receiptOk =
    !receipt.failure && receipt.claims?.rid === proof.recordId && receipt.claims?.ph === proof.proofHash && (receipt.claims?.att ?? null) === attribution;
  checks.push({ label: 'The receipt is signed by a published key and names this record, proof hash and attribution', ok: receiptOk, ...(receipt.failure ? { detail: receipt.failure } : {}) });
  if (!receiptOk) return done(`The receipt fails: ${receipt.failure ?? 'it names another record, proof hash or attribution'}.`);
  return erasure ? { ...done(), erasure: `Verified; ${erasure.fields} erased on ${erasure.at} by the retention run ${erasure.runId}, bound by log entry ${proof.erasure!.log.leafIndex}.` } : done();
};

/** Whether the evidence shows any value as erased (`{ sha256 }` in place of the value). */
const showsErasedValues = (payload: Record<string, unknown>): boolean => Object.values(payload).some(isErasedMarker);

const fieldWords: Record<string, string> = { externalId: 'the external id', userAgent: 'the user agent', ipAddress: 'the IP address', salt: 'the salt' };
const wordsOf = (fields: string[]) => {
  const words = fields.map((field) => fieldWords[field] ?? field);
  return `${words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}` : words[0]!} ${words.length > 1 ? 'were' : 'was'}`;
};

/**
 * The logged retention.erased a record whose values were erased stands by, as the proof gives it:
 * it hashes to its leaf data, is this tenant's erasure of this principal naming this record, and its
 * binding holds for the evidence shown (shared/consent/erasure-binding.ts: this proof hash, only
 * erasable fields, each shown as its SHA-256, and `evidenceHash`, what the shown evidence hashes to).
 */
const erasureBinding = async (
  proof: Proof,
  payload: Record<string, unknown> & { recordId?: string; tenantId?: string; dataPrincipalHash?: string },
  evidenceHash: string,
  tenantId: string,
): Promise<{ failure?: string; hash?: Uint8Array; at?: string; runId?: string; fields?: string }> => {
  const erasure = proof.erasure;
  if (!erasure) return { failure: 'The evidence shows erased values, yet the proof names no erasure that binds it: the evidence was altered.' };
  const hash = fromHex(erasure.document.hash);
  if (!hash || !equal(await sha256(utf8(erasure.document.canonical)), hash)) return { failure: 'The logged erasure does not hash to its hash: the erasure was altered.' };
  const document = JSON.parse(erasure.document.canonical) as { kind?: string; documentType?: string; documentId?: string; tenantId?: string; subjectId?: string; at?: string; content?: { identifierHash?: string; runId?: string; records?: string[]; recordBindings?: RecordBinding[]; externalIds?: RecordBinding[] } };
  const content = document.content ?? {};
  if (document.kind !== 'document' || document.documentType !== 'retention.erased' || document.tenantId !== tenantId || document.documentId !== erasure.document.documentId) return { failure: "The erasure is not a logged retention.erased of this tenant." };
  if (payload.tenantId !== tenantId || payload.recordId !== proof.recordId || document.subjectId !== `retention:${payload.dataPrincipalHash}` || content.identifierHash !== payload.dataPrincipalHash) return { failure: "The erasure is of another principal's data than this record's." };
  const binding = [...(content.recordBindings ?? []), ...(content.externalIds ?? [])].find((entry) => entry.recordId === proof.recordId);
  if (!binding || !content.records?.includes(proof.recordId)) return { failure: 'The logged erasure binds no evidence of this record.' };
  if (binding.proofHash !== proof.proofHash) return { failure: "The logged erasure binds another proof hash than this record's." };
  const problem = bindingProblem('record', payload, evidenceHash, proof.recordId, proof.proofHash, binding);
  if (problem) return { failure: `The evidence without its erased values is not the evidence the logged erasure bound to the proof hash (${problem}): the evidence was altered.` };
  return { hash, at: document.at, runId: content.runId, fields: wordsOf(Object.keys(boundFields('record', binding))) };
};
