import { principalHash } from '../consent/principal';
import type { ChildEvidence } from '../consent/record';
import type { ConsentState, PrincipalStatus, VerificationMethod } from '../consent/states';
import { encryptSecret } from '../crypto/secret-box';
import { ValidationError } from '../errors';
import { newTimeOrderedId } from '../ids';
import { verifyGuardianAttestation, type GuardianAttestation } from './attestation';
import { classExemption, purposeExemption, type ExemptionEvidence } from './fourth-schedule';
import type { ChildrenPolicy } from './policy';
import { linkDays, tokenHashOf, tokenOf, type GuardianRequest } from './request';

/** What a child's (or guarded person's) decision adds to recording: sdk-record and POST /consent/record. */
export interface ChildInput {
  principalStatus: Exclude<PrincipalStatus, 'ADULT'>;
  guardianEmail?: string;
  majorityAt?: string;
  guardianAttestation?: GuardianAttestation;
}

/** The child part of a recording request's body; undefined for an adult's decision (and an adult's guardian fields are refused). */
export const childInputOf = (body: { principalStatus: PrincipalStatus; guardianEmail?: string; majorityAt?: string; guardianAttestation?: GuardianAttestation }): ChildInput | undefined => {
  if (body.principalStatus !== 'ADULT') return { principalStatus: body.principalStatus, guardianEmail: body.guardianEmail, majorityAt: body.majorityAt, guardianAttestation: body.guardianAttestation };
  const stray = (['guardianEmail', 'majorityAt', 'guardianAttestation'] as const).filter((field) => body[field] !== undefined);
  if (stray.length > 0) throw new ValidationError(Object.fromEntries(stray.map((field) => [field, 'only with principalStatus CHILD or GUARDED'])));
  return undefined;
};

export interface ChildPlan {
  child: ChildEvidence;
  consentState: ConsentState;
  /** The request to write with the record, when a parent or guardian must decide. */
  request?: (recordId: string, tenantId: string, noticeId: string, dataPrincipalHash: string, language: string) => GuardianRequest;
}

const dayMs = 86_400_000;

/** The exemption a granted purpose relies on: a Part B purpose the DPO named for it, else the tenant's Part A class. */
const exemptionOf = (policy: ChildrenPolicy, purposeId: string): ExemptionEvidence | undefined => {
  const named = policy.purposeExemptions.find((entry) => entry.purposeId === purposeId);
  if (named) return purposeExemption(purposeId, named.exemption);
  return policy.fourthScheduleClass ? classExemption(purposeId, policy.fourthScheduleClass) : undefined;
};

/**
 * Decides a child's or guarded person's decision before anything is written (s.9, rules 10-12):
 * - a tenant whose audience is ADULTS takes none (400 on principalStatus);
 * - the parent's or guardian's email is required; a child may not consent to a purpose marked
 *   childProhibited (s.9(3): 400 naming it on `decisionField`);
 * - a TENANT_ATTESTED attestation comes from the tenant's server (a secret key) and must verify;
 * - granted purposes all exempt under the Fourth Schedule (or none granted: nothing to consent
 *   to): ACTIVE at once, the exemptions and their conditions in the evidence; otherwise the whole
 *   decision is AWAITING_GUARDIAN and a request goes to the guardian. An exempt purpose is
 *   processed under its exemption, not this consent, so waiting costs it nothing.
 */
export const planChildDecision = (
  input: ChildInput,
  context: {
    policy: ChildrenPolicy;
    verifiers: ReadonlyMap<string, string>;
    consentGiven: Record<string, boolean>;
    decisionField: string;
    secretKey: boolean;
    now: Date;
  },
): ChildPlan => {
  const { policy, now } = context;
  const fields: Record<string, string> = {};
  if (policy.audience === 'ADULTS') fields.principalStatus = 'this organisation takes no decisions of children or guarded persons (children settings: audience ADULTS)';
  if (!input.guardianEmail) fields.guardianEmail = `required for ${input.principalStatus}: the parent or lawful guardian is asked there`;
  const granted = Object.entries(context.consentGiven).filter(([, given]) => given).map(([purposeId]) => purposeId);
  const prohibited = input.principalStatus === 'CHILD' ? granted.filter((purposeId) => policy.childProhibitedPurposes.includes(purposeId)) : [];
  if (prohibited.length > 0) fields[context.decisionField] = `not for a child (childProhibited: tracking, behavioural monitoring or targeted advertising, s.9(3)): ${prohibited.join(', ')}`;
  const today = now.toISOString().slice(0, 10);
  if (input.majorityAt !== undefined && input.principalStatus !== 'CHILD') fields.majorityAt = 'only for a CHILD';
  else if (input.majorityAt !== undefined && input.majorityAt <= today) fields.majorityAt = 'a child turns 18 after today';
  if (input.guardianAttestation && !context.secretKey) fields.guardianAttestation = 'sent by the tenant\'s server, with a secret key only';
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
  const guardianEmail = input.guardianEmail!.trim().toLowerCase();
  const attested = input.guardianAttestation ? verifyGuardianAttestation(input.guardianAttestation, guardianEmail, context.verifiers, now) : undefined;
  const methods: VerificationMethod[] = policy.methods.filter((method) => method !== 'TENANT_ATTESTED' || attested);
  const exemptions = granted.flatMap((purposeId) => exemptionOf(policy, purposeId) ?? []);
  const waits = exemptions.length < granted.length;
  if (waits && methods.length === 0) throw new ValidationError({ guardianAttestation: 'required: this organisation verifies parents and guardians only by its own attestation (TENANT_ATTESTED)' });
  const child: ChildEvidence = {
    principalStatus: input.principalStatus,
    guardianHash: principalHash(guardianEmail),
    majorityAt: input.majorityAt ?? null,
    exemptions,
    guardianAttestation: attested ? { guardianIdentifierHash: input.guardianAttestation!.guardianIdentifierHash, issuedAt: input.guardianAttestation!.issuedAt, keyId: attested.keyId } : null,
  };
  if (!waits) return { child, consentState: 'ACTIVE' };
  return {
    child,
    consentState: 'AWAITING_GUARDIAN',
    request: (recordId, tenantId, noticeId, dataPrincipalHash, language) => {
      const requestId = newTimeOrderedId(now);
      return {
        requestId,
        tenantId,
        consentRecordId: recordId,
        principalStatus: input.principalStatus,
        dataPrincipalHash,
        noticeId,
        language,
        guardianHash: child.guardianHash,
        sealedGuardianEmail: encryptSecret(guardianEmail),
        attestation: child.guardianAttestation,
        methods,
        status: 'PENDING',
        method: null,
        generation: 1,
        tokenHash: tokenHashOf(tokenOf(requestId, 1)),
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + linkDays * dayMs).toISOString(),
        decidedAt: null,
        version: 1,
      };
    },
  };
};
