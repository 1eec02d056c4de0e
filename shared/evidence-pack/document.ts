import { namesLine, timeLine, type Block, type DocumentModel, type Inline, type Line, type Section } from '../documents/document';
import { directionOf, isLanguageCode, isoOf, languages } from '../i18n/languages';
import { defaultTimeZone } from '../time/format';
import type { ActorView } from '../users/actor';
import { actorWords, userIdOf } from '../users/actor-words';
import { isErasedMarker } from '../consent/erasure-binding';
import { erasuresSection, logLine } from './document-erasures';
import type { EvidencePack, PackNotice, PackRecord, PackWithdrawal } from './pack';

/**
 * The evidence pack as a document (shared/documents) for a DPO or a regulator: the principal's
 * decisions in plain words, the notices as they were shown, the evidence field by field under
 * written labels, the signed log; and the pack itself embedded as JSON for machines
 * (scripts/verify-evidence-pack.mjs reads the page as well as the JSON). Its words are English:
 * the page is read by the tenant and the Board, not by the principal.
 */

export interface PackContext {
  dpoContact: string | null;
  timeZone: string | undefined;
  /** The team members the evidence names by id, as their records read now. */
  actors: ReadonlyMap<string, ActorView>;
}

/** The user ids the pack's evidence names (attributedBy, a withdrawal's actor): what PackContext.actors must hold. */
export const packUserIds = (pack: EvidencePack): string[] =>
  [...pack.records.map((record) => userIdOf(String(record.payload.attributedBy ?? ''))), ...pack.withdrawals.map((withdrawal) => userIdOf(String(withdrawal.evidence.actor ?? '')))].filter(
    (id): id is string => id !== undefined,
  );

const languageName = (code: string) => languages.find((language) => language.code === code)?.name ?? code;
const shownIn = (code: string, text: string): Inline => (isLanguageCode(code) && code !== 'EN' ? { text, lang: isoOf(code), dir: directionOf(code) } : text);

const methods: Record<string, string> = {
  DASHBOARD: 'by the Data Fiduciary’s team, in the dashboard',
  WEB_PORTAL: 'by the Data Principal, on the withdrawal page',
  PUBLIC_API: 'through the Data Fiduciary’s public withdrawal call',
  WIDGET: 'by the Data Principal, in the consent widget',
};

const attributionWords: Record<string, string> = {
  SECRET_KEY: 'Verified: the Data Fiduciary’s server named the person with its secret key',
  SIGNED_HASH: 'Verified: the widget sent the person’s identifier hash, signed by the Data Fiduciary’s server',
  DASHBOARD: 'Verified: a member of the Data Fiduciary’s team recorded it in the dashboard',
  UNSIGNED_HASH: 'Claimed: the page sent an identifier hash nobody signed',
  IP_ADDRESS: 'By IP address only: no identifier was sent',
};

/** A team member or key a stored reference names, as words with the id on hover. */
const whoLine = (reference: unknown, context: PackContext): Line => {
  const value = String(reference ?? '');
  const userId = userIdOf(value);
  if (userId) {
    const actor = context.actors.get(userId);
    return [{ name: actor ? actorWords(actor) : 'a team member', id: userId }];
  }
  if (value.startsWith('key:')) return ['the API key ', { code: value.slice('key:'.length) }];
  if (value.startsWith('principal:')) return [`the Data Principal (${value.slice('principal:'.length).replace(/-/g, ' ')})`];
  return value ? [{ code: value }] : ['Not stated'];
};

const purposeNamesOf = (notice: PackNotice | undefined) => new Map(notice?.text.purposes.map((purpose) => [purpose.id, purpose]) ?? []);

const noticeOf = (pack: EvidencePack, payload: Record<string, unknown>): PackNotice | undefined =>
  pack.notices.find((notice) => notice.noticeId === payload.noticeId && notice.versionNumber === payload.noticeVersionNumber && notice.language === payload.languageShown);

const purposeInline = (id: string, notice: PackNotice | undefined): Inline => {
  const purpose = purposeNamesOf(notice).get(id);
  return purpose ? { name: purpose.name, id } : { name: 'a purpose not in the notice text', id };
};

/** The purposes a withdrawal took from one record: the requested ones it had, or all of them. */
const withdrawnFrom = (withdrawal: PackWithdrawal, purposeIds: string[]) => {
  const requested = (withdrawal.evidence.requestedPurposeIds as string[] | undefined) ?? [];
  return requested.length === 0 ? purposeIds : requested.filter((id) => purposeIds.includes(id));
};

const decision = (pack: EvidencePack, record: PackRecord, context: PackContext): Section => {
  const payload = record.payload;
  const notice = noticeOf(pack, payload);
  const given = (payload.consentGiven ?? {}) as Record<string, boolean>;
  const ids = Object.keys(given);
  const language = String(payload.languageShown);
  const withdrawals = pack.withdrawals
    .filter((withdrawal) => ((withdrawal.evidence.recordIds as string[] | undefined) ?? []).includes(record.recordId))
    .map((withdrawal): Line => {
      const taken = withdrawnFrom(withdrawal, ids);
      const given = withdrawal.evidence.reason;
      const reason = isErasedMarker(given) ? ', giving a reason (erased when consent lapsed)' : given ? `, giving the reason “${String(given)}”` : '';
      return [
        { time: String(withdrawal.evidence.withdrawnAt) },
        ': withdrew ',
        ...(taken.length === ids.length ? ['consent for every purpose'] : namesLine(taken.map((id) => purposeInline(id, notice)), 'nothing')),
        ` ${methods[String(withdrawal.evidence.method)] ?? 'by a way this page does not name'}`,
        ...(withdrawal.evidence.method === 'DASHBOARD' ? [' (', ...whoLine(withdrawal.evidence.actor, context), ')'] : []),
        `${reason}.`,
      ];
    });
  const title = notice?.text.title;
  return {
    heading: `Consent under “${title ?? 'a notice whose text is missing'}”, version ${String(payload.noticeVersionNumber)}`,
    blocks: [
      {
        kind: 'pairs',
        rows: [
          ['Given', timeLine(String(payload.createdAt))],
          ['Against the notice', [title ? shownIn(language, title) : 'a notice whose text is missing from the pack', `, version ${String(payload.noticeVersionNumber)}, shown in ${languageName(language)}`]],
          ['Record', [{ code: record.recordId }]],
        ],
      },
      {
        kind: 'list',
        items: ids.map((id): Line => [given[id] ? 'Agreed to ' : 'Did not agree to ', purposeInline(id, notice), purposeNamesOf(notice).get(id)?.required ? ' (required by the notice)' : '']),
      },
      withdrawals.length > 0 ? { kind: 'pairs', rows: [['Afterwards', { kind: 'list', items: withdrawals }]] } : { kind: 'paragraph', text: ['No withdrawal of this consent is recorded.'] },
      { kind: 'paragraph', text: logLine(record.log) },
    ],
  };
};

const noticeSection = (notice: PackNotice): Section => {
  const inLanguage = (value: string) => [shownIn(notice.language, value)];
  return {
    heading: `${notice.text.title}: version ${notice.versionNumber}, in ${languageName(notice.language)}`,
    blocks: [
      { kind: 'pairs', rows: [['Published', [{ time: notice.publishedAt }, notice.changeNote ? `; change note: ${notice.changeNote}` : '']], ['Notice', [{ code: notice.noticeId }]]] },
      { kind: 'paragraph', text: inLanguage(notice.text.introText) },
      {
        kind: 'table',
        caption: 'Purposes as they stood',
        columns: ['Purpose', 'Description', 'Data', 'Lawful basis', 'Required'],
        rows: notice.text.purposes.map((purpose) => [inLanguage(purpose.name), inLanguage(purpose.description), namesLine(purpose.dataCategories, 'None stated'), [lawfulBasisWords(purpose.legalBasis)], [purpose.required ? 'Required' : 'Optional']]),
      },
      { kind: 'pairs', rows: [['Rights', inLanguage(notice.text.rightsText)], ['Complaints', inLanguage(notice.text.complaintText)], ['Contact', [notice.text.contactEmail, notice.text.contactUrl ? `, ${notice.text.contactUrl}` : '']]] },
    ],
  };
};

const lawfulBases: Record<string, string> = { CONSENT: 'Consent', LEGITIMATE_USE: 'A legitimate use (section 7 of the Act)' };
export const lawfulBasisWords = (basis: string): string => lawfulBases[basis] ?? basis.toLowerCase().replace(/_/g, ' ');

/** The written label of each evidence field the proof formats hold; a field a later format adds reads under its own name, quoted. */
const evidenceLabels: Record<string, string> = {
  tenantId: 'Data Fiduciary (tenant id)',
  recordId: 'Record',
  noticeId: 'Notice',
  noticeVersionNumber: 'Notice version',
  noticeTextHash: 'Hash of the notice text shown',
  languageShown: 'Language shown',
  positionShown: 'Where the notice was shown',
  dataPrincipalHash: 'Data Principal (SHA-256 of the identifier)',
  externalId: 'The Data Fiduciary’s own reference',
  consentGiven: 'Choices',
  createdAt: 'Recorded',
  ipAddress: 'IP address',
  userAgent: 'Browser',
  salt: 'Salt (random, of this entry alone: keys the hashes of its erased values)',
  chainSeq: 'Position in the former hash chain',
  prevProofHash: 'Previous proof hash in the former hash chain',
  attribution: 'Attribution',
  attributionMethod: 'How the person was identified',
  attributedBy: 'Identified by',
  withdrawalId: 'Withdrawal',
  recordIds: 'Records it withdrew from',
  requestedPurposeIds: 'Purposes asked to withdraw',
  purposeIds: 'Purposes withdrawn',
  isFullWithdrawal: 'Every purpose withdrawn',
  method: 'How',
  reason: 'Reason given',
  actor: 'By',
  withdrawnAt: 'Withdrawn',
  kind: 'Kind of log entry',
};

const hashLike = /^(?:[0-9a-f]{32,}|[0-9a-f-]{36})$/i;

/** One evidence value as words: times, names for ids, Yes/No, lists, nested fields; never raw JSON. */
const evidenceValue = (name: string, value: unknown, context: PackContext, notice: PackNotice | undefined, salted = false): Line | Block => {
  if (value === null || value === undefined || value === '') return ['Not recorded'];
  if (name === 'attributedBy' || name === 'actor') return whoLine(value, context);
  if (name === 'attributionMethod') return [attributionWords[String(value)] ?? String(value)];
  if (name === 'attribution') return [({ VERIFIED: 'Verified', CLAIMED: 'Claimed, not verified', IP: 'By IP address only' } as Record<string, string>)[String(value)] ?? String(value)];
  // Retention erased the value: the evidence holds its SHA-256, keyed by the record's salt where it has one (evidence-erasure.ts).
  if (isErasedMarker(value)) return [`Erased when consent lapsed; ${salted && name !== 'salt' ? 'its SHA-256 with the salt' : 'its SHA-256'}: `, { code: value.sha256 }];
  if (name === 'kind') return [value === 'withdrawal' ? 'A withdrawal' : String(value)];
  if (name === 'positionShown') return [value === 'api' ? 'On the Data Fiduciary’s own page or system (recorded through the API)' : `In the consent widget, ${String(value).replace(/-/g, ' ')}`];
  if (name === 'method') return [methods[String(value)] ?? String(value)];
  if (name === 'languageShown') return [languageName(String(value))];
  if (name === 'consentGiven' && typeof value === 'object') {
    return { kind: 'list', items: Object.entries(value as Record<string, boolean>).map(([id, agreed]): Line => [purposeInline(id, notice), agreed ? ': agreed' : ': did not agree']) };
  }
  if (typeof value === 'boolean') return [value ? 'Yes' : 'No'];
  if (typeof value === 'number') return [String(value)];
  if (typeof value === 'string') return /At$/.test(name) && !Number.isNaN(Date.parse(value)) ? [{ time: value }] : hashLike.test(value) ? [{ code: value }] : [value];
  if (Array.isArray(value)) return value.length === 0 ? ['None'] : { kind: 'list', items: value.map((item) => (typeof item === 'string' && name.toLowerCase().includes('purpose') ? [purposeInline(item, notice)] : [{ code: String(item) }])) };
  return { kind: 'pairs', rows: Object.entries(value as Record<string, unknown>).map(([inner, innerValue]) => [evidenceLabels[inner] ?? `“${inner}”`, evidenceValue(inner, innerValue, context, notice)] as const) };
};

const evidenceRows = (fields: Record<string, unknown>, context: PackContext, notice: PackNotice | undefined) =>
  Object.entries(fields).map(([name, value]) => [evidenceLabels[name] ?? `“${name}”`, evidenceValue(name, value, context, notice, 'salt' in fields)] as const);

const recordEvidence = (pack: EvidencePack, record: PackRecord, context: PackContext): Section => ({
  heading: `Record ${record.recordId.slice(0, 8)}… (proof format ${record.proofVersion})`,
  blocks: [
    {
      kind: 'pairs',
      rows: [
        ...evidenceRows(record.payload, context, noticeOf(pack, record.payload)),
        ['Proof hash', [{ code: record.proofHash }]],
        ['In the log', logLine(record.log)],
        ['Receipt', [{ code: record.receipt }]],
      ],
    },
  ],
});

const withdrawalEvidence = (pack: EvidencePack, withdrawal: PackWithdrawal, context: PackContext): Section => {
  const record = pack.records.find((candidate) => ((withdrawal.evidence.recordIds as string[] | undefined) ?? []).includes(candidate.recordId));
  return {
    heading: `Withdrawal ${withdrawal.withdrawalId.slice(0, 8)}…`,
    blocks: [{ kind: 'pairs', rows: [...evidenceRows(withdrawal.evidence, context, record && noticeOf(pack, record.payload)), ['Hash', [{ code: withdrawal.hash }]], ['In the log', logLine(withdrawal.log)]] }],
  };
};

const checkpointRows = (checkpoint: EvidencePack['log']['checkpoint']): (readonly [string, Line | Block])[] =>
  checkpoint
    ? [
        ['Tree size', [String(checkpoint.treeSize)]],
        ['Root hash', [{ code: checkpoint.rootHash }]],
        ['Signed', [{ time: checkpoint.signedAt }]],
        ['Key', [{ code: checkpoint.keyId }]],
        ['Signed note', { kind: 'pre', text: checkpoint.note }],
      ]
    : [['Checkpoint', ['None yet: nothing of this Data Fiduciary’s is signed']]];

/** The kid in the pack signature's protected header, as the page names the key (the verifier checks the signature). */
const signatureKey = (pack: EvidencePack): string => {
  try {
    return String((JSON.parse(Buffer.from(pack.signature.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid?: unknown }).kid);
  } catch {
    return 'unreadable';
  }
};

export const packDocumentModel = (pack: EvidencePack, context: PackContext): DocumentModel => {
  const pending = [...pack.records, ...pack.withdrawals, ...(pack.erasures ?? [])].filter((entry) => entry.log.status === 'PENDING').length;
  const erasures = erasuresSection(pack);
  const checkpoint = pack.log.checkpoint;
  return {
    title: 'Consent evidence pack',
    status: {
      text: ['Signed as a whole by the evidence log’s key ', { code: signatureKey(pack) }, ' when it was made', pending ? `; ${pending} ${pending === 1 ? 'entry is' : 'entries are'} not yet in a signed checkpoint` : ''],
      tone: pending ? 'warning' : 'final',
    },
    fiduciary: pack.tenant.name,
    dpoContact: context.dpoContact,
    reference: checkpoint
      ? ['The Data Fiduciary’s evidence log ', { code: pack.log.origin }, `, checkpoint of size ${checkpoint.treeSize} with root hash `, { code: checkpoint.rootHash }, ', signed ', { time: checkpoint.signedAt }]
      : ['The Data Fiduciary’s evidence log ', { code: pack.log.origin }, ': no signed checkpoint yet'],
    head: [
      ['Data Principal (SHA-256 of the identifier)', [{ code: pack.principalHash }]],
      ['Made', [{ time: pack.generatedAt }]],
      [
        'Contents',
        [
          `${pack.records.length} consent ${pack.records.length === 1 ? 'record' : 'records'}, ${pack.withdrawals.length} ${pack.withdrawals.length === 1 ? 'withdrawal' : 'withdrawals'}, ${pack.notices.length} notice ${pack.notices.length === 1 ? 'text' : 'texts'}`,
          pack.erasures?.length ? `, ${pack.erasures.length} ${pack.erasures.length === 1 ? 'erasure' : 'erasures'} of her personal data` : '',
        ],
      ],
      ['Pack format', [`Version ${pack.packVersion}`]],
    ],
    sections: [
      {
        heading: 'How to check it',
        blocks: [
          {
            kind: 'paragraph',
            text: [
              'Save this page (or the JSON pack) and run ',
              { code: 'node scripts/verify-evidence-pack.mjs pack.html keys.json' },
              ' from the service’s source, with nothing but Node.js, where ',
              { code: 'keys.json' },
              ' is the service’s public keys fetched from the service itself (',
              { code: 'GET /api/v1/consent/log/keys' },
              '): without it the verifier can only use the keys inside the pack, which shows the pack agrees with itself, not that the service made it.',
            ],
          },
          {
            kind: 'paragraph',
            text: [
              `It checks the pack’s signature first, then recomputes every hash (${pack.proofAlgorithm}), checks each notice text against the hash in its records, that no withdrawal predates its record and no entry postdates the pack, each entry’s place in the Data Fiduciary’s signed log (RFC 9162), the checkpoint’s signature and each receipt; a value erased when consent lapsed shows as its SHA-256 and is checked by the logged erasure that binds it. It answers VALID when every entry is in a signed checkpoint, COMPLETE BUT NOT YET CHECKPOINTED when some rest on the pack’s signature alone (make the pack again a minute later), INVALID otherwise. A pack shows that what it holds is genuine; the log’s verification shows nothing is missing.`,
            ],
          },
        ],
      },
      { heading: 'What the person decided', blocks: [], sections: pack.records.map((record) => decision(pack, record, context)) },
      { heading: 'The notices as they were shown', blocks: [], sections: pack.notices.map(noticeSection) },
      {
        heading: 'The evidence',
        blocks: pack.withdrawals.length ? [] : [{ kind: 'paragraph', text: ['No withdrawal is recorded.'] }],
        sections: [...pack.records.map((record) => recordEvidence(pack, record, context)), ...pack.withdrawals.map((withdrawal) => withdrawalEvidence(pack, withdrawal, context))],
      },
      ...(erasures ? [erasures] : []),
      {
        heading: 'The signed log',
        blocks: [],
        sections: [
          { heading: 'The checkpoint every inclusion proof leads to', blocks: [{ kind: 'pairs', rows: checkpointRows(pack.log.checkpoint) }] },
          {
            heading: 'The latest checkpoint when the pack was made',
            blocks: [{ kind: 'pairs', rows: [...checkpointRows(pack.log.latestCheckpoint), ['Consistency proof', pack.log.consistencyProof.length ? { kind: 'pre', text: pack.log.consistencyProof.join('\n') } : ['None needed: the same checkpoint']]] }],
          },
          { heading: 'Public keys in the pack', blocks: [{ kind: 'table', caption: 'Keys the pack carries', columns: ['Key id', 'Algorithm', 'Curve'], rows: pack.keys.keys.map((key) => [[{ code: key.kid }], [String(key.alg)], [key.crv ?? 'None']]) }] },
        ],
      },
    ],
    footer: [['Evidence of consent under the Digital Personal Data Protection Act, 2023, sections 6 and 7; made by the consent service from the Data Fiduciary’s signed evidence log.']],
    timeZone: context.timeZone ?? defaultTimeZone,
    embedded: { id: 'evidence-pack', json: JSON.stringify(pack) },
  };
};
