/**
 * Rate-limit counters: one item per (rule, subject, window), removed by TTL after the window.
 *
 * Access pattern:
 * - count a hit ................. UpdateItem ADD hits PK=RATE#<rule>#<subject> SK=<windowStart> (1 WCU)
 */
export const rateLimitKeys = {
  counter: (rule: string, subject: string, windowStart: number) => ({
    PK: `RATE#${rule}#${subject}`,
    SK: String(windowStart),
  }),
};
