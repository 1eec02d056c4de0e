/**
 * The words of a record's attribution (attribution.ts says what each means), apart from the code
 * that decides them, so schemas and browser code can name them without the crypto behind them.
 */
export const attributionLevels = ['VERIFIED', 'CLAIMED', 'IP'] as const;
export type AttributionLevel = (typeof attributionLevels)[number];
export const attributionMethods = ['SECRET_KEY', 'SIGNED_HASH', 'DASHBOARD', 'UNSIGNED_HASH', 'IP_ADDRESS'] as const;
export type AttributionMethod = (typeof attributionMethods)[number];
