/**
 * The words of a record's attribution (attribution.ts says what each means), apart from the code
 * that decides them, so schemas and browser code can name them without the crypto behind them.
 */
export const attributionLevels = ['VERIFIED', 'CLAIMED', 'IP'] as const;
export type AttributionLevel = (typeof attributionLevels)[number];
export const attributionMethods = ['SECRET_KEY', 'SIGNED_HASH', 'DASHBOARD', 'UNSIGNED_HASH', 'IP_ADDRESS'] as const;
export type AttributionMethod = (typeof attributionMethods)[number];

/**
 * How a withdrawal made with only an email knows its principal (withdrawal-attribution.ts):
 * PUBLIC_EMAIL_CLAIM, an email sent to withdraw-public with the publishable key, which anyone can
 * read off the tenant's pages, so nobody verified the sender is the person (level CLAIMED); or
 * SECRET_KEY, the tenant's server sent it, vouching for it (level VERIFIED).
 */
export const withdrawalAttributionMethods = ['PUBLIC_EMAIL_CLAIM', 'SECRET_KEY'] as const;
export type WithdrawalAttributionMethod = (typeof withdrawalAttributionMethods)[number];

/** A withdrawal's attribution (withdrawal-attribution.ts says how it is decided). */
export interface WithdrawalAttribution {
  level: Extract<AttributionLevel, 'CLAIMED' | 'VERIFIED'>;
  method: WithdrawalAttributionMethod;
  /** `key:<keyId>`: the key the call came with. */
  attributedBy: string;
  /** The page's origin as the request stated it (Origin, else Referer), at most 300 characters; null from a server. */
  origin: string | null;
  ipHash: string;
}

/** The level in a word, as the dashboard's badge and the team's mail put it. */
export const withdrawalAttributionLabel = (attribution: WithdrawalAttribution): string => (attribution.level === 'CLAIMED' ? 'Unverified' : 'Verified');

/** The attribution in the team's words (English, like the dashboard and the team's mails). */
export const withdrawalAttributionText = (attribution: WithdrawalAttribution): string => {
  const from = `origin ${attribution.origin ?? 'none (not sent from a browser)'}, IP hash ${attribution.ipHash}`;
  const key = attribution.attributedBy.replace(/^key:/, '');
  return attribution.method === 'PUBLIC_EMAIL_CLAIM'
    ? `Someone sent this email address to the public withdrawal endpoint with your publishable key ${key}, which anyone can read off your pages; nobody checked that they are the person (${from}). The consent setting "Confirm by email first" makes the person confirm by mail.`
    : `Your server sent this email address with secret key ${key} (${from}).`;
};
