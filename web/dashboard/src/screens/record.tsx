import { useState } from 'preact/hooks';
import { api, session } from '../session';
import { ErrorText, Heading, Link, Loading, formatDateTime, useData } from '../ui';
import { verifyProof, type Verification } from '../verify';
import { actorWords, type ActorSnapshot } from '../../../../shared/users/actor-words';
import { EvidenceExport } from './evidence-export';
import { consentStateText, verificationMethodLabels } from './guardian-words';
import { WithdrawalAttributionNote, withdrawalMethodText } from './withdrawal-words';

type ActorView = ActorSnapshot & { asRecordedThen: boolean };

/** The JWKS (served bare, no envelope, no token needed) that signs checkpoints and receipts. */
const loadKeys = async () => {
  const response = await fetch('/api/v1/consent/log/keys', { headers: { Accept: 'application/json' }, credentials: 'omit' });
  if (!response.ok) throw new Error(`The public keys could not be read (${response.status}).`);
  return ((await response.json()) as { keys: { kty: string; kid: string; crv?: string; x?: string; y?: string }[] }).keys;
};

/** What the record's attribution (proof formats 3 and 4, part of its evidence) means, in words. */
const attributionText = (payload: Record<string, unknown>, proofVersion: number, actor: ActorView | null): string => {
  const by = typeof payload.attributedBy === 'string' ? payload.attributedBy.replace(/^\w+:/, '') : '';
  switch (payload.attributionMethod) {
    case 'SECRET_KEY':
      return `Verified: your server named the person, with secret key ${by}.`;
    case 'SIGNED_HASH':
      return typeof payload.identifierSignedAt === 'number'
        ? `Verified: the widget sent the person's identifier hash, signed by your server with secret key ${by} at ${formatDateTime(new Date(payload.identifierSignedAt * 1000).toISOString())}.`
        : `Verified: the widget sent the person's identifier hash, signed by your server with secret key ${by}.`;
    case 'DASHBOARD':
      // The evidence keeps the user's id; the team member is named as the team list reads now.
      return `Verified: a member of your team recorded it in the dashboard: ${actor ? actorWords(actor) : `user ${by}`}.`;
    case 'UNSIGNED_HASH':
      return `Claimed: the page sent an identifier hash nobody signed; anyone holding the publishable key ${by} could have sent it.`;
    case 'IP_ADDRESS':
      return "By IP address only: no identifier was sent, so the record is filed under a hash of the visitor's IP address.";
    default:
      return `Not stated: the record was made before attribution was recorded (proof version ${proofVersion}).`;
  }
};

const show = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));

export default function Record({ params }: { params: Record<string, string> }) {
  const id = params.id ?? '';
  const { data: proof, error, loading } = useData(() => api.call('consentProof', { params: { id } }), [id]);
  const [verification, setVerification] = useState<Verification>();
  const [verifyError, setVerifyError] = useState<unknown>();
  const [verifying, setVerifying] = useState(false);

  const verify = async () => {
    if (!proof) return;
    setVerifying(true);
    setVerifyError(undefined);
    setVerification(undefined);
    try {
      // The proof is read again, so a record that has just been covered by a checkpoint verifies.
      const [fresh, keys] = await Promise.all([api.call('consentProof', { params: { id } }), loadKeys().catch(() => undefined)]);
      setVerification(await verifyProof(fresh, keys, session.value!.tenantId));
    } catch (failure) {
      setVerifyError(failure);
    } finally {
      setVerifying(false);
    }
  };

  return (
    <>
      <p class="crumbs">
        <Link to="/records">Consent records</Link>
      </p>
      <Heading title="Consent record">Consent record</Heading>
      <p>
        <code>{id}</code>
      </p>
      {loading && !proof ? <Loading what="the record" /> : null}
      <ErrorText error={error} />
      {proof ? (
        <>
          <section aria-labelledby="verify-heading" class="panel">
            <h2 id="verify-heading">Proof check</h2>
            <p>
              Recomputes the proof hash from the evidence in this browser, checks the Merkle inclusion proof up to the signed checkpoint, the checkpoint's signature and the
              receipt, with the service's published keys.
            </p>
            <button type="button" onClick={verify} disabled={verifying} aria-describedby="verify-result">
              Verify proof
            </button>
            <div id="verify-result" role="status" aria-live="polite">
              {verifying ? <p>Checking…</p> : null}
              {verification ? (
                <>
                  <p class={verification.holds ? 'result ok' : 'result failed'}>
                    <strong>{verification.holds ? 'The proof holds.' : `The proof does not hold. ${verification.failure ?? ''}`}</strong>
                  </p>
                  {verification.erasure ? <p id="verify-erasure">{verification.erasure}</p> : null}
                  <ul class="checks">
                    {verification.checks.map((check) => (
                      <li key={check.label}>
                        {check.ok ? 'Passed: ' : 'Failed: '}
                        {check.label}
                        {check.detail ? <span class="muted"> ({check.detail})</span> : null}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
            </div>
            <ErrorText error={verifyError} />
          </section>

          <section aria-labelledby="attribution-heading">
            <h2 id="attribution-heading">Who the record names</h2>
            <p id="attribution">{attributionText(proof.payload, proof.proofVersion, proof.attributedByActor)}</p>
          </section>

          <section aria-labelledby="state-heading">
            <h2 id="state-heading">Consent in force</h2>
            <p id="consent-state">{consentStateText[proof.consentState]}</p>
            {proof.guardianVerification ? (
              <p id="guardian-verification">
                Approved by the parent or lawful guardian {formatDateTime(proof.guardianVerification.verifiedAt)}, verified as an identifiable adult by:{' '}
                {verificationMethodLabels[proof.guardianVerification.method]}.
              </p>
            ) : null}
            {proof.guardianRequestId ? (
              <p>
                Guardian request <code>{proof.guardianRequestId}</code> (its logged decisions are on the <Link to="/children">Children</Link> screen).
              </p>
            ) : null}
          </section>

          {proof.lastWithdrawal ? (
            <section aria-labelledby="withdrawal-heading">
              <h2 id="withdrawal-heading">Withdrawal</h2>
              <p id="withdrawal">
                {proof.lastWithdrawal.isFullWithdrawal ? 'Fully withdrawn' : 'Partly withdrawn'} {formatDateTime(proof.lastWithdrawal.withdrawnAt)},{' '}
                {withdrawalMethodText(proof.lastWithdrawal.method)} (withdrawal <code>{proof.lastWithdrawal.withdrawalId}</code>
                {proof.lastWithdrawal.reason ? `; reason given: ${proof.lastWithdrawal.reason}` : ''}
                {proof.lastWithdrawal.reasonSha256 ? '; the reason given was erased when consent lapsed (its SHA-256 stays in the evidence)' : ''}).
              </p>
              <WithdrawalAttributionNote attribution={proof.lastWithdrawal.attribution} id="withdrawal-attribution" />
            </section>
          ) : null}

          <EvidenceExport id="record-pack" principal={{ principalHash: String(proof.payload.dataPrincipalHash) }} />

          <section aria-labelledby="evidence-heading">
            <h2 id="evidence-heading">Evidence</h2>
            <table class="pairs">
              <tbody>
                {Object.entries(proof.payload).map(([name, value]) => (
                  <tr key={name}>
                    <th scope="row">{name}</th>
                    <td>
                      <code>{show(value)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>

          <section aria-labelledby="proof-heading">
            <h2 id="proof-heading">Proof</h2>
            <dl class="pairs">
              <dt>Algorithm</dt>
              <dd>
                {proof.algorithm} (proof version {proof.proofVersion})
              </dd>
              <dt>Proof hash</dt>
              <dd>
                <code class="wrap">{proof.proofHash}</code>
              </dd>
              <dt>Canonical evidence (RFC 8785)</dt>
              <dd>
                <pre class="wrap">{proof.canonicalPayload}</pre>
              </dd>
              <dt>Position in the log</dt>
              <dd>
                {proof.log.status === 'INTEGRATED'
                  ? `Leaf ${proof.log.leafIndex ?? '—'} of a tree of size ${proof.log.treeSize}`
                  : 'Pending: a signed checkpoint covers a new record within seconds.'}
              </dd>
              <dt>Inclusion proof</dt>
              <dd>{proof.log.inclusionProof.length === 0 ? '—' : <pre class="wrap">{proof.log.inclusionProof.join('\n')}</pre>}</dd>
              <dt>Signed checkpoint</dt>
              <dd>
                {proof.log.checkpoint ? (
                  <>
                    Size {proof.log.checkpoint.treeSize}, signed {formatDateTime(proof.log.checkpoint.signedAt)} with key <code>{proof.log.checkpoint.keyId}</code>
                    <pre class="wrap">{proof.log.checkpoint.note}</pre>
                  </>
                ) : (
                  'None yet'
                )}
              </dd>
            </dl>
          </section>

          <section aria-labelledby="receipt-heading">
            <h2 id="receipt-heading">Receipt</h2>
            <p>The signed receipt (a compact JWS) that was returned when the consent was recorded. Anyone can check it offline with <code>scripts/verify-receipt.mjs</code>.</p>
            <pre class="wrap">{proof.receipt}</pre>
          </section>
        </>
      ) : null}
    </>
  );
}
