import { namesLine, text, timeLine, type Block, type DocumentModel, type Inline, type Line, type Section } from '../documents/document';
import { defaultTimeZone } from '../time/format';
import { actorWords } from '../users/actor-words';
import type { Actor, AffectedScope } from './breach';
import type { FilingStage } from './schemas';

/**
 * A Board filing as a document (shared/documents): the intimation (Rule 7(2)(a)) or the detailed
 * report (Rule 7(2)(b)), under the Rule's own item labels, from the filing exactly as filed (the
 * frozen JSON read back from the evidence log) or as it would be filed now. Ids the filing holds
 * are written as the names the tenant gave them; the frozen JSON keeps the ids.
 *
 * The item labels are the words of the Digital Personal Data Protection Rules, 2025, rule 7, as
 * published (text read at https://dpdpa.co.in/rule-7 and
 * https://dpdpaedu.org/docs/DPDPA%20Rules/Intimation%20of%20Personal%20Data%20Breach).
 */
export const ruleSource = 'Digital Personal Data Protection Rules, 2025, rule 7 (text as published: dpdpa.co.in/rule-7)';

export const boardItems = {
  intimation: 'A description of the breach, including its nature, extent, timing and location of occurrence and the likely impact',
  i: '(i) Updated and detailed information in respect of such description',
  ii: '(ii) The broad facts related to the events, circumstances and reasons leading to the breach',
  iii: '(iii) Measures implemented or proposed, if any, to mitigate risk',
  iv: '(iv) Any findings regarding the person who caused the breach',
  v: '(v) Remedial measures taken to prevent recurrence of such breach',
  vi: '(vi) A report regarding the intimations given to affected Data Principals',
} as const;

/** A filing as boardFiling answers it, with who filed it (from the filing's logged document). */
export interface FilingForDocument {
  stage: FilingStage;
  filed: boolean;
  filedAt: string | null;
  late: boolean | null;
  documentId: string | null;
  missing: Record<string, string>;
  document: Record<string, unknown>;
  filedBy: Actor | null;
}

export interface DocumentContext {
  tenant: { name: string; timeZone?: string | undefined };
  dpoContact: string | null;
  /** Names the tenant gave what the filing names by id (notices, purposes), as they are now. */
  noticeTitles: ReadonlyMap<string, string>;
  purposeNames: ReadonlyMap<string, string>;
  /** Whether the tenant's systems can be told of principals without an email (breach.principals subscribed). */
  webhookSubscribed: boolean;
}

type Json = Record<string, unknown>;
const objectOf = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const stringOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const numberOf = (value: unknown): number => (typeof value === 'number' ? value : 0);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const actorLine = (actor: Actor | null): Line => (actor ? [{ name: actorWords(actor), id: actor.userId }] : ['the service']);

const count = (value: number, one: string, many: string) => `${value.toLocaleString('en-IN')} ${value === 1 ? one : many}`;

const scopeWords = (affected: Json, context: DocumentContext): Line => {
  const scope = stringOf(affected.scope) as AffectedScope | null;
  const named = (ids: unknown, names: ReadonlyMap<string, string>, unknown: string): Inline[] =>
    listOf(ids).map((id) => ({ name: names.get(String(id)) ?? unknown, id: String(id) }));
  switch (scope) {
    case 'ALL':
      return ['Every Data Principal with a consent record'];
    case 'NOTICES':
      return ['Those who consented under the notices ', ...namesLine(named(affected.noticeIds, context.noticeTitles, 'a notice since deleted'), 'none')];
    case 'PURPOSES':
      return ['Those who gave consent for the purposes ', ...namesLine(named(affected.purposeIds, context.purposeNames, 'a purpose since deleted'), 'none')];
    case 'PRINCIPALS':
      return [`${count(numberOf(affected.listedPrincipals), 'Data Principal', 'Data Principals')} listed by the Data Fiduciary`];
    default:
      return ['Not stated'];
  }
};

const assetsLine = (assets: unknown): Line =>
  namesLine(
    listOf(assets).map((asset) => {
      const item = objectOf(asset);
      const name = stringOf(item.name);
      return { name: name ? `${name}${stringOf(item.system) ? ` (${String(item.system)})` : ''}` : 'an asset since removed from the data map', id: String(item.assetId) };
    }),
    'None named',
  );

/** Item (i) of the report, and the intimation's description: the Rule's parts, each labelled. */
const description = (value: unknown): Block => {
  const item = objectOf(value);
  const timing = objectOf(item.timing);
  const categories = listOf(item.dataCategories).map(String);
  return {
    kind: 'pairs',
    rows: [
      ['Nature', text(stringOf(item.nature), 'Not stated')],
      ['Extent', text(stringOf(item.extent), 'Not stated')],
      ['Occurred', timeLine(stringOf(timing.occurredAt), 'Not known yet')],
      ['The Data Fiduciary became aware', timeLine(stringOf(timing.awareAt))],
      ['Location of occurrence', text(stringOf(item.location), 'Not stated')],
      ['Systems and stores (data map)', assetsLine(item.assets)],
      ['Personal data affected', namesLine(categories, 'Not stated')],
      ['Likely impact', text(stringOf(item.likelyImpact), 'Not stated')],
    ],
  };
};

/** Item (vi): who was told, how, and who was not, with the warning a DPO must read before filing. */
const intimationReport = (value: unknown, context: DocumentContext): Block[] => {
  const item = objectOf(value);
  const total = numberOf(item.total);
  const mailed = numberOf(item.mailed);
  const viaTenant = numberOf(item.viaTenant);
  const awaiting = numberOf(item.awaitingTenant);
  const failed = numberOf(item.failed);
  const blocks: Block[] = [
    {
      kind: 'pairs',
      rows: [
        ['Affected Data Principals', scopeWords(objectOf(item.affected), context)],
        ['Intimations sent', [`${count(numberOf(item.runs), 'run', 'runs')}, the first started `, ...timeLine(stringOf(item.startedAt), 'not yet'), '; the last finished ', ...timeLine(stringOf(item.finishedAt), 'not yet')]],
        ['Data Principals found', [count(total, 'Data Principal', 'Data Principals')]],
        ['Told by email', [count(mailed, 'Data Principal', 'Data Principals')]],
        ['Told by the Data Fiduciary’s own systems', [`${count(viaTenant, 'Data Principal', 'Data Principals')} without a known email, whose intimation the Data Fiduciary’s systems acknowledged`]],
        ['Not reached', [`${count(awaiting + failed, 'Data Principal', 'Data Principals')} (${count(awaiting, 'without a known email and not acknowledged', 'without a known email and not acknowledged')}; ${count(failed, 'whose contact could not be read', 'whose contacts could not be read')})`]],
      ],
    },
  ];
  if (awaiting > 0) {
    blocks.push({
      kind: 'note',
      tone: 'warning',
      text: [
        context.webhookSubscribed
          ? `${count(awaiting, 'Data Principal has', 'Data Principals have')} no known email and were handed to the Data Fiduciary’s systems, which have not acknowledged them: they are counted as not reached until they do.`
          : `${count(awaiting, 'Data Principal has', 'Data Principals have')} no known email and no system of the Data Fiduciary is subscribed to receive them (breach.principals): nobody has told them, and they are counted as not reached.`,
      ],
    });
  }
  return blocks;
};

const extensionLine = (value: unknown): Line => {
  const item = objectOf(value);
  return stringOf(item.grantedUntil) ? ['The Board allowed until ', { time: String(item.grantedUntil) }, ` (the Board’s reference ${stringOf(item.reference) ?? 'not given'})`] : ['None: due within 72 hours of becoming aware'];
};

export const filingTitle = (stage: FilingStage) =>
  stage === 'INTIMATION' ? 'Intimation of a personal data breach to the Data Protection Board' : 'Detailed report of a personal data breach to the Data Protection Board';

export const boardDocumentModel = (filing: FilingForDocument, context: DocumentContext): DocumentModel => {
  const doc = filing.document;
  const fiduciary = objectOf(doc.fiduciary);
  const missing = Object.values(filing.missing);
  const status: DocumentModel['status'] = filing.filed
    ? { text: [`Filed${filing.late ? ' late' : ''}: recorded `, { time: filing.filedAt }, ' by ', ...actorLine(filing.filedBy)], tone: filing.late ? 'warning' : 'final' }
    : { text: [missing.length > 0 ? 'Draft, not filed: items are missing' : 'Draft, not filed: it can be filed'], tone: 'draft' };
  const sections: Section[] = [];
  if (!filing.filed && missing.length > 0) sections.push({ heading: 'Missing before it can be filed', blocks: [{ kind: 'list', items: missing.map((why) => [why]) }] });
  if (filing.stage === 'INTIMATION') {
    sections.push({ heading: boardItems.intimation, source: `${ruleSource}, sub-rule (2)(a)`, blocks: [description(doc.description)] });
    sections.push({ heading: 'Affected Data Principals', blocks: [{ kind: 'paragraph', text: scopeWords(objectOf(doc.affected), context) }] });
  } else {
    const items = objectOf(doc.items);
    const written = (key: 'ii' | 'iii' | 'iv' | 'v'): Section => ({ heading: boardItems[key], blocks: [{ kind: 'paragraph', text: text(stringOf(items[key]), 'Not yet written') }] });
    sections.push(
      { heading: boardItems.i, source: `${ruleSource}, sub-rule (2)(b)`, blocks: [description(items.i)] },
      written('ii'),
      written('iii'),
      written('iv'),
      written('v'),
      { heading: boardItems.vi, blocks: intimationReport(items.vi, context) },
    );
    const intimation = objectOf(doc.boardIntimation);
    sections.push({
      heading: 'The earlier intimation and the time allowed',
      blocks: [
        {
          kind: 'pairs',
          rows: [
            ['Board intimation', stringOf(intimation.filedAt) ? ['Filed ', { time: String(intimation.filedAt) }, intimation.late ? ', late' : '', '; evidence log document ', { code: String(intimation.documentId) }] : ['Not filed yet']],
            ['Extension', extensionLine(doc.extension)],
          ],
        },
      ],
    });
  }
  return {
    title: filingTitle(filing.stage),
    status,
    fiduciary: stringOf(fiduciary.name) ?? context.tenant.name,
    dpoContact: context.dpoContact,
    reference: filing.filed && filing.documentId ? ['Document ', { code: filing.documentId }, ' of the Data Fiduciary’s evidence log'] : ['None yet: the document enters the evidence log when it is filed'],
    head: [
      ['Breach', [{ name: stringOf(doc.title) ?? 'Untitled', id: String(doc.breachId) }]],
      ['Became aware', timeLine(stringOf(doc.awareAt))],
    ],
    sections,
    footer: [
      ['Filed under the Digital Personal Data Protection Act, 2023, section 8(6), and the Digital Personal Data Protection Rules, 2025, rule 7. The consent service records the filing in the Data Fiduciary’s evidence log; it does not send it to the Board.'],
    ],
    timeZone: context.tenant.timeZone ?? defaultTimeZone,
  };
};
