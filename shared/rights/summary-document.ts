import { namesLine, type DocumentModel, type Line, type Section } from '../documents/document';
import { languages } from '../i18n/languages';
import { defaultTimeZone } from '../time/format';
import { requestTypeNames, type RightsRequest } from './request';
import type { AccessSummary } from './summary';

/**
 * The access summary (s.11) as a document (shared/documents) a DPO keeps or attaches: the same
 * sections the principal's page shows, in English, headed by the fiduciary, the DPO's contact and
 * the request's place in the evidence log.
 */


const languageName = (code: string) => languages.find((language) => language.code === code)?.name ?? code;
const days = (count: number) => `${count.toLocaleString('en-IN')} ${count === 1 ? 'day' : 'days'}`;

/** A section that is a table of its rows, or a sentence saying there are none. */
const tableSection = (heading: string, none: string, table: { caption: string; columns: readonly string[]; rows: readonly Line[][] }): Section => ({
  heading,
  blocks: table.rows.length === 0 ? [{ kind: 'paragraph', text: [none] }] : [{ kind: 'table', ...table }],
});

export const summaryDocumentModel = (summary: AccessSummary, request: Pick<RightsRequest, 'requestId' | 'requestType' | 'submissionDocumentId' | 'resolutionDocumentId'>, timeZone: string | undefined): DocumentModel => {
  const records = tableSection('Consent given', 'No consent of this Data Principal is on record.', {
    caption: 'Each consent, oldest first',
    columns: ['Notice', 'Given', 'Purposes agreed to', 'Withdrawn'],
    rows: summary.records.map((record): Line[] => [
      [{ name: record.noticeTitle, id: record.noticeId }, `, version ${record.noticeVersion}, shown in ${languageName(record.language)}`],
      [{ time: record.givenAt }],
      namesLine(record.purposesGranted.map((purpose) => ({ name: purpose.name, id: purpose.purposeId })), 'None'),
      record.purposesWithdrawn.length === 0
        ? ['Nothing']
        : [...namesLine(record.purposesWithdrawn.map((purpose) => ({ name: purpose.name, id: purpose.purposeId })), 'Nothing'), ...(record.withdrawnAt ? [', on ', { time: record.withdrawnAt }] : [])],
    ]),
  });
  const uses = tableSection('What the personal data is used for now', 'Nothing: no consent is in force, and no other lawful basis is recorded.', {
    caption: 'Purposes in force, with the data and where it is held',
    columns: ['Purpose', 'Lawful basis', 'Data', 'Held in'],
    rows: summary.purposes.map((purpose): Line[] => [
      [{ name: purpose.name, id: purpose.purposeId }],
      [purpose.lawfulBasis === 'CONSENT' ? 'Consent, given and not withdrawn' : 'A legitimate use (section 7 of the Act), not consent'],
      namesLine(purpose.dataCategories, 'None stated'),
      namesLine(
        purpose.assets.map((asset) => ({ name: `${asset.name} (${asset.location || asset.system})${asset.retentionDays ? `, kept ${days(asset.retentionDays)}` : ''}`, id: asset.assetId })),
        'No system of the data map',
      ),
    ]),
  });
  const shared = tableSection('Shared with', 'Nobody. Disclosures to authorities under section 11(2) are never listed.', {
    caption: 'Data Processors and Data Fiduciaries the data has been shared with',
    columns: ['Who', 'Role', 'Country', 'Data'],
    rows: summary.sharedWith.map((recipient): Line[] => [
      [{ name: recipient.name, id: recipient.processorId }, recipient.contactEmail ? `, ${recipient.contactEmail}` : ''],
      [recipient.role === 'PROCESSOR' ? 'Data Processor' : 'Data Fiduciary'],
      [recipient.country],
      namesLine(recipient.dataCategories, 'None stated'),
    ]),
  });
  const nominees: Section = {
    heading: 'Nominees',
    blocks:
      summary.nominees.length === 0
        ? [{ kind: 'paragraph', text: ['Nobody is nominated.'] }]
        : [{ kind: 'list', items: summary.nominees.map((nominee): Line => [`${nominee.name} (${nominee.relationship}), nominated `, { time: nominee.nominatedAt }]) }],
  };
  const logged = request.resolutionDocumentId ?? request.submissionDocumentId;
  return {
    title: 'Summary of personal data processed (section 11)',
    status: { text: ['As the data stands at ', { time: summary.generatedAt }], tone: 'final' },
    fiduciary: summary.tenant.name,
    dpoContact: summary.dpoContact,
    reference: logged ? [`The request’s ${request.resolutionDocumentId ? 'resolution' : 'submission'}: document `, { code: logged }, ' of the Data Fiduciary’s evidence log'] : ['None yet: the request is not submitted'],
    head: [
      ['Request', [`${requestTypeNames[request.requestType]}, reference `, { code: request.requestId }]],
      ['Data Principal (SHA-256 of the identifier)', [{ code: summary.principalHash }]],
    ],
    sections: [records, uses, shared, nominees],
    footer: [['A summary under the Digital Personal Data Protection Act, 2023, section 11, assembled by the consent service from the Data Fiduciary’s consent records and data map.']],
    timeZone: timeZone ?? defaultTimeZone,
  };
};
