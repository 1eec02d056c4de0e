import type { Line, Section } from '../documents/document';
import type { EvidencePack, PackRecord } from './pack';

/**
 * The pack page's account of what the service erased of the Data Principal once her consent lapsed
 * for every purpose (retention, s.8(7)): each logged retention.erased, when, by which run, why,
 * which values of which records and withdrawals, and its place in the log, as the JSON pack and
 * its verifier (scripts/verify-evidence-pack.mjs) give them. The page says what each entry states;
 * the verifier checks it.
 */

export const logLine = (log: PackRecord['log']): Line =>
  log.status === 'INTEGRATED'
    ? [`In the signed log at position ${String(log.leafIndex)}.`]
    : [
        `Not yet covered by a signed checkpoint${log.leafIndex === null ? '' : ` (position ${String(log.leafIndex)})`}: its hash can be checked, and the pack’s signature vouches that the service held it when the pack was made; its place in the log cannot be proven until a later pack.`,
      ];

const erasedWords: Record<string, string> = {
  sealedContact: 'Her email address, kept sealed to write to her',
  externalId: 'The Data Fiduciary’s own reference to her (external id), in the evidence',
  userAgent: 'Her browser (user agent), in the evidence',
  ipAddress: 'Her IP address, in the evidence',
  salt: 'The random salt of each record that keyed the hashes of those values, in the evidence',
  withdrawalReason: 'The reason she gave for a withdrawal, in its evidence',
  withdrawalSalt: 'The random salt that keyed the hash of that reason, in its evidence',
  withdrawalEmail: 'Her email address on a withdrawal, kept to confirm it to her',
};

const reasonWords: Record<string, string> = {
  RETENTION_PERIOD_ENDED: 'The retention period of every purpose she had decided on ended, and her consent lapsed (section 8(7) of the Act)',
};

interface ErasedContent {
  runId?: string;
  reason?: string;
  erased?: string[];
  records?: string[];
  withdrawals?: string[];
}

/** What one logged erasure states, read from its canonical text (an unreadable one is said to be so; the verifier refuses it). */
const contentOf = (canonical: string): { at?: string; content: ErasedContent } => {
  try {
    const document = JSON.parse(canonical) as { at?: string; content?: ErasedContent };
    return { at: document.at, content: document.content ?? {} };
  } catch {
    return { content: {} };
  }
};

const codes = (ids: readonly string[] | undefined): Line | { kind: 'list'; items: Line[] } =>
  ids && ids.length > 0 ? { kind: 'list', items: ids.map((id): Line => [{ code: id }]) } : ['None'];

/** The erasures section, or none for a principal whose data was not erased. */
export const erasuresSection = (pack: EvidencePack): Section | undefined => {
  if (!pack.erasures || pack.erasures.length === 0) return undefined;
  return {
    heading: 'What was erased when consent lapsed',
    blocks: [
      {
        kind: 'paragraph',
        text: [
          'Once the Data Principal’s consent lapsed for every purpose, the service erased what it held of her that is not needed to prove what she decided. Each erased value in the evidence above shows as its SHA-256; the logged erasure binds the evidence so shown to the hash the log holds for it, so every record and withdrawal still verifies. An erasure can hide a value, never a choice, a record or a withdrawal.',
        ],
      },
    ],
    sections: pack.erasures.map((erasure) => {
      const { at, content } = contentOf(erasure.canonical);
      return {
        heading: `Erasure ${erasure.documentId.slice(0, 8)}…`,
        blocks: [
          {
            kind: 'pairs',
            rows: [
              ['Erased', at ? [{ time: at }] : ['Not stated']],
              ['Why', [content.reason ? (reasonWords[content.reason] ?? content.reason) : 'Not stated']],
              ['Retention run', content.runId ? [{ code: content.runId }] : ['Not stated']],
              ['What was erased', { kind: 'list', items: (content.erased ?? []).map((name): Line => [erasedWords[name] ?? name]) }],
              ['Records', codes(content.records)],
              ...(content.withdrawals ? [['Withdrawals', codes(content.withdrawals)] as const] : []),
              ['Hash', [{ code: erasure.hash }]],
              ['In the log', logLine(erasure.log)],
            ],
          },
        ],
      };
    }),
  };
};
