import { decryptSecret, encryptSecret } from '../crypto/secret-box';
import { principalHash } from './principal';
import { principalRecordsWithContact, removeSealedContact } from './store';

/**
 * A principal's email, kept only so that the tenant's fiduciary duties that need it can be met:
 * today the intimation of a personal data breach (DPDP Act s.8(6), shared/breaches). It is kept
 * when a record is made with an identifier that is an email (the DPO's `POST /consent/record`,
 * or `sdk-record` with a server-side `identifier`; never from the widget, which sends hashes),
 * encrypted with AES-256-GCM (shared/crypto/secret-box.ts, the key that protects webhook
 * secrets) as one attribute of the record item: no extra write per consent, and outside the
 * record's evidence (the proof hash never covers it). No API returns it and nothing logs it.
 */

const emailPattern = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The identifier as the email it is (trimmed and lower-cased, as its hash is made), or undefined. */
export const emailOf = (identifier: string): string | undefined => {
  const email = identifier.trim().toLowerCase();
  return emailPattern.test(email) ? email : undefined;
};

export const sealContact = (email: string): string => encryptSecret(email);

/**
 * The email a sealed contact holds, checked against the principal it is stored for: a value
 * copied onto another principal's record, or one that does not decrypt, is refused (thrown).
 */
export const openContact = (sealed: string, dataPrincipalHash: string): string => {
  const email = decryptSecret(sealed);
  if (principalHash(email) !== dataPrincipalHash) throw new Error('the stored contact does not belong to this principal');
  return email;
};

export interface PrincipalContact {
  /** The language of the principal's latest consent record (`languageShown`), if she has one. */
  language: string | undefined;
  /** The sealed email of her newest record that carries one. */
  sealed: string | undefined;
}

/** What the tenant may use to reach a principal: one query of her records (a handful, newest first). */
export const principalContact = async (tenantId: string, dataPrincipalHash: string): Promise<PrincipalContact> => {
  const records = await principalRecordsWithContact(tenantId, dataPrincipalHash);
  return { language: records[0]?.record.languageShown, sealed: records.find((entry) => entry.sealedContact !== undefined)?.sealedContact };
};

/**
 * An erasure request fulfilled (s.12): the principal's sealed email leaves every record that kept
 * it. The records stay as evidence of the decisions, which never included the email.
 */
export const forgetContact = async (tenantId: string, dataPrincipalHash: string): Promise<number> => {
  const sealed = (await principalRecordsWithContact(tenantId, dataPrincipalHash)).filter((entry) => entry.sealedContact !== undefined);
  await Promise.all(sealed.map((entry) => removeSealedContact(tenantId, entry.record.recordId)));
  return sealed.length;
};
