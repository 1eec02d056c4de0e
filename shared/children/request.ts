import { createHmac } from 'node:crypto';
import { secretConfig } from '../config';
import { sha256Hex } from '../crypto/hash';
import type { PrincipalStatus, VerificationMethod } from '../consent/states';
import type { RequestStatus } from './schemas';

/** A link works for 7 days, as every link a principal is sent. */
export const linkDays = 7;

/**
 * The request a child's (or guarded person's) decision waits on: whom it asks, how they may prove
 * who they are, and where it stands. Its link is not stored: only the SHA-256 of the current one
 * (`tokenHash`), which a resend replaces, voiding the old link.
 */
export interface GuardianRequest {
  requestId: string;
  tenantId: string;
  consentRecordId: string;
  principalStatus: Exclude<PrincipalStatus, 'ADULT'>;
  dataPrincipalHash: string;
  noticeId: string;
  /** The language the child saw: the mail and the page speak it. */
  language: string;
  /** SHA-256 of the guardian's email (trimmed, lower-cased). */
  guardianHash: string;
  /** The guardian's email, sealed (crypto/secret-box.ts): for the mails, never shown. */
  sealedGuardianEmail: string;
  /** TENANT_ATTESTED: what the tenant's signature vouched for, verified at recording. */
  attestation: { guardianIdentifierHash: string; issuedAt: number; keyId: string } | null;
  /** The methods offered, decided when the request was made (TENANT_ATTESTED only with an attestation). */
  methods: VerificationMethod[];
  status: RequestStatus;
  method: VerificationMethod | null;
  /** Links mailed so far; the current link is derived from it (linkOf). */
  generation: number;
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  /** Every change is conditional on the version read. */
  version: number;
}

/**
 * The link's token: `g`, the request id (hex) and an HMAC-SHA256 (base64url) over the id and the
 * link's generation, keyed with the service's secret-sealing key. Derived rather than stored, so
 * that the mail can be written from the table's stream (recording stays two writes) while the
 * table holds only the token's hash; the key never leaves the service, so nobody who reads the
 * table, an API answer, a page or a receipt can make a token.
 */
export const tokenOf = (requestId: string, generation: number): string =>
  `g${requestId.replaceAll('-', '')}${createHmac('sha256', secretConfig.webhookSecretKey).update(`guardian-link\n${requestId}\n${generation}`).digest('base64url')}`;

export const tokenHashOf = (token: string): string => sha256Hex(token);

/** The request id a token names (its shape was checked by the route's schema). */
export const requestIdOfToken = (token: string): string => token.slice(1, 33).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
