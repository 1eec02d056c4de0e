import { canonicalJson } from '../consent/proof';
import { signDetachedJws } from '../evidence/jws';
import { checkpointSigner } from '../evidence/signers';

/** The explicit type of a pack's signature (RFC 8725 §3.11): no receipt or other JWS of the same key passes for one. */
export const packSignatureType = 'consent-evidence-pack+jws';

/**
 * What a pack's signature covers: the RFC 8785 (JCS) canonical form of the whole pack without its
 * `signature` member, as UTF-8. A verifier recomputes it from the pack it holds.
 */
export const packSigningPayload = (unsigned: object): Uint8Array => Buffer.from(canonicalJson(unsigned), 'utf8');

/**
 * The pack's `signature`: a compact JWS with detached payload (RFC 7515 Appendix F) over
 * packSigningPayload, by the evidence log's own key (the one that signs checkpoints: a KMS key in
 * AWS, a key file locally; its kid is in the pack's JWKS and in GET /consent/log/keys). With it the
 * pack is evidence as a whole: no entry can be rewritten, added or dropped, and no date or log
 * status changed, without the signature failing; and an entry that no checkpoint covers yet rests
 * on it, at the time the pack says it was made.
 */
export const signPack = async (unsigned: object): Promise<string> => signDetachedJws(packSignatureType, packSigningPayload(unsigned), await checkpointSigner());
