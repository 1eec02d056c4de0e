import { createHash } from 'node:crypto';
import { env, intFromEnv, localOrTest } from './env';

/**
 * The keys and secrets: what encrypts and authenticates at rest, what signs evidence and access
 * tokens, and the tokens' issuer, audience and lifetimes. Outside the local stack and the tests a
 * missing secret stops the function rather than falling back to a known one.
 */
export const secretConfig = {
  /**
   * The key that encrypts webhook signing secrets at rest (they must be readable to sign, so
   * they are encrypted rather than hashed), and secret API keys' identity verifiers (shared/api-keys/api-key.ts):
   * SHA-256 of WEBHOOK_SECRET_KEY, a secret of at least 32 characters.
   */
  get webhookSecretKey(): Buffer {
    const raw = env('WEBHOOK_SECRET_KEY');
    if (raw === undefined) {
      if (localOrTest()) return createHash('sha256').update('local-webhook-secret-key').digest();
      throw new Error('WEBHOOK_SECRET_KEY is required outside the local stack');
    }
    if (raw.length < 32) throw new Error('WEBHOOK_SECRET_KEY must be at least 32 characters');
    return createHash('sha256').update(raw).digest();
  },
  /** Key of the HMAC that authenticates paging cursors (shared/crypto/cursor.ts); at least 32 characters. */
  get cursorSecret(): string {
    const raw = env('CURSOR_SECRET');
    if (raw === undefined) {
      if (localOrTest()) return 'local-development-cursor-secret-not-for-production';
      throw new Error('CURSOR_SECRET is required outside the local stack');
    }
    if (raw.length < 32) throw new Error('CURSOR_SECRET must be at least 32 characters');
    return raw;
  },
  /** The AWS KMS asymmetric key (ECC_NIST_P256) that signs checkpoints; unset locally (a key file signs). */
  get logSigningKeyArn(): string | undefined {
    return env('LOG_SIGNING_KEY_ARN');
  },
  /**
   * The checkpoint key's public half as a JWKS (RFC 7517) in JSON, which the stack reads from KMS at
   * deploy (infra/token-keys.ts) for the function that only verifies the log (evidence-verify), so
   * it neither loads the KMS client nor calls KMS. Unset locally: the key file's public half.
   */
  get logPublicKeys(): string | undefined {
    return env('LOG_PUBLIC_KEYS');
  },
  /** The Secrets Manager secret the receipt key (Ed25519) is derived from; unset locally (a key file signs). */
  get receiptKeySecretArn(): string | undefined {
    return env('RECEIPT_KEY_SECRET_ARN');
  },
  /** The local stack's signing key files, created on first use (0600). */
  get localKeyDir(): string {
    return env('CMS_KEY_DIR') ?? `${process.cwd()}/.data/keys`;
  },
  get accessTokenTtlSeconds(): number {
    return intFromEnv('ACCESS_TOKEN_TTL_SECONDS', 15 * 60);
  },
  get refreshTokenTtlSeconds(): number {
    return intFromEnv('REFRESH_TOKEN_TTL_SECONDS', 30 * 24 * 60 * 60);
  },
  get jwtIssuer(): string {
    return env('JWT_ISSUER') ?? 'consent-service';
  },
  get jwtAudience(): string {
    return env('JWT_AUDIENCE') ?? 'consent-service-dashboard';
  },
  /**
   * The key that signs access tokens, which only the auth function is given: an AWS KMS key
   * (ECC_NIST_P256, ES256) by its ARN in AWS; locally a key file (Ed25519, EdDSA), created on first use.
   */
  get tokenSigningKey(): string {
    const configured = env('TOKEN_SIGNING_KEY');
    if (configured !== undefined) return configured;
    if (localOrTest()) return `${secretConfig.localKeyDir}/token-signing.pem`;
    throw new Error('TOKEN_SIGNING_KEY is required outside the local stack');
  },
  /**
   * The public keys whose access tokens every function accepts, as a JWKS (RFC 7517) in JSON: in
   * AWS the stack reads them from KMS at deploy (a custom resource, infra/token-keys.ts) and gives
   * them to every HTTP function, so none of them loads the KMS client or calls KMS. The signing
   * key's first; during a rotation the previous one's too, until the tokens it signed have expired
   * (docs/deploying.md). When unset, TOKEN_VERIFY_KEYS' key files are read instead.
   */
  get tokenPublicKeys(): string | undefined {
    return env('TOKEN_PUBLIC_KEYS');
  },
  /**
   * Key files (comma separated) whose public halves verify access tokens when TOKEN_PUBLIC_KEYS is
   * not given: the local stack's and the tests'. Locally the signing key file.
   */
  get tokenVerifyKeys(): string[] {
    const configured = env('TOKEN_VERIFY_KEYS');
    if (configured !== undefined) return configured.split(',').map((key) => key.trim()).filter(Boolean);
    if (localOrTest()) return [secretConfig.tokenSigningKey];
    throw new Error('TOKEN_PUBLIC_KEYS is required outside the local stack');
  },
};
