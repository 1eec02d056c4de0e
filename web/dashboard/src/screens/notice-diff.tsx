import { api } from '../session';
import type { DataOf } from '../api';
import { ApiError } from '../api';
import { languages } from '../../../../shared/i18n/languages';
// Pure modules (type-only imports): the browser decides materiality by the very code the API uses.
import { diffSnapshots } from '../../../../shared/notices/diff';
import type { NoticeChange, NoticeSnapshot } from '../../../../shared/notices/notice';

type Version = DataOf<'listNoticeVersions'>[number];
type Detail = DataOf<'getNotice'>;
type Change = Omit<NoticeChange, 'oldValue' | 'newValue'> & { oldValue?: unknown; newValue?: unknown };

const fieldLabels: Record<string, string> = {
  title: 'Title',
  introText: 'Introduction',
  contactEmail: 'Contact email',
  contactUrl: 'Contact page',
  rightsText: 'Rights',
  complaintText: 'Complaints',
  withdrawalUrl: 'Withdrawal page',
  name: 'name',
  description: 'description',
  dataCategories: 'data categories',
  legalBasis: 'legal basis',
  required: 'required',
  displayOrder: 'order',
  translations: 'Translation',
  purposes: 'Purpose',
};
const languageNames: Record<string, string> = Object.fromEntries(languages.map((language) => [language.code, language.name]));

/** `purposes.<id>.dataCategories` → `Purpose Marketing › data categories`. */
const labelOf = (field: string, purposeNames: Record<string, string>) =>
  field
    .split('.')
    .map((part) => purposeNames[part] ?? languageNames[part] ?? fieldLabels[part] ?? part)
    .join(' › ')
    .replace(/^(Purpose|Translation) › /, '$1 ');

const show = (value: unknown): string => {
  if (value === undefined || value === null) return '—';
  if (Array.isArray(value)) return value.map(show).join(', ');
  if (typeof value === 'object') {
    const named = value as { name?: string; title?: string };
    return named.name ?? named.title ?? JSON.stringify(value);
  }
  return String(value);
};

const typeLabel = { added: 'Added', removed: 'Removed', modified: 'Changed' } as const;

/** The changes between two versions, material ones marked. */
export const DiffTable = ({ changes, purposeNames, caption }: { changes: Change[]; purposeNames: Record<string, string>; caption: string }) =>
  changes.length === 0 ? (
    <p>No changes.</p>
  ) : (
    <table class="diff">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Change</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.field} class={change.isMaterial ? 'material' : undefined}>
            <th scope="row">{labelOf(change.field, purposeNames)}</th>
            <td>
              {typeLabel[change.type]}
              {change.isMaterial ? <span class="badge overdue">Material</span> : null}
            </td>
            <td class="wrap-text">{show(change.oldValue)}</td>
            <td class="wrap-text">{show(change.newValue)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );

export const MaterialWarning = () => (
  <p class="notice warning" role="alert">
    Material change: a purpose was added or removed, or a purpose's data categories or legal basis changed. Everyone who consented will be asked
    again.
  </p>
);

/** Purpose names by id, from every version shown (a removed purpose keeps its name). */
export const purposeNamesOf = (...purposeLists: { id: string; name: string }[][]) =>
  Object.fromEntries(purposeLists.flat().map((purpose) => [purpose.id, purpose.name]));

/** The draft as its publish would snapshot it: its text, its purposes as they stand now, its translations. */
const snapshotOfDraft = (draft: Detail): NoticeSnapshot =>
  ({
    ...draft,
    purposes: draft.purposes.map(({ isRequired, ...purpose }) => ({ ...purpose, required: isRequired })),
  }) as unknown as NoticeSnapshot;

const versionOf = async (noticeId: string, versionNumber?: number | null): Promise<Version | undefined> => {
  const versions = await api.call('listNoticeVersions', { params: { id: noticeId } });
  return versionNumber ? versions.find((version) => version.versionNumber === versionNumber) : versions[0];
};

/**
 * What "Publish" would change, compared as the API compares: against the published notice it
 * replaces, else the lineage's latest version; none for a first publish.
 */
export const publishPreview = async (id: string) => {
  // Read afresh: the draft may have been saved a moment ago.
  const draft = await api.call('getNotice', { params: { id } });
  let previous: Version | undefined;
  try {
    const active = await api.call('getActiveNotice');
    previous = await versionOf(active.id, active.versionNumber);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    previous = await versionOf(draft.id);
  }
  if (!previous) return undefined;
  const diff = diffSnapshots(previous as unknown as NoticeSnapshot, snapshotOfDraft(draft));
  return { previous, ...diff, purposeNames: purposeNamesOf(previous.purposes, draft.purposes) };
};
