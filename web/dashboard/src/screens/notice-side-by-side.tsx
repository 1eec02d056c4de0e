import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../session';
import type { DataOf } from '../api';
import { ErrorText, fieldErrors, useAction } from '../ui';
import { languages, type LanguageCode } from '../../../../shared/i18n/languages';
import { OtherMessages, TextField } from './notice-fields';

type Detail = DataOf<'getNotice'>;
type Translation = Detail['translations'][string];

/** The 22 scheduled languages (every language but English). */
export const scheduled = languages.filter((language) => language.code !== 'EN');

const sourceLabels = { MANUAL: 'Manual', MACHINE_DRAFTED: 'Machine draft', NEEDS_TRANSLATION: 'Needs translation' } as const;
const sourceClasses = { MANUAL: 'active', MACHINE_DRAFTED: 'partial', NEEDS_TRANSLATION: 'overdue' } as const;

export const SourceBadge = ({ translation }: { translation?: Translation }) =>
  translation ? (
    <span class={`badge ${sourceClasses[translation.source]}`}>{sourceLabels[translation.source]}</span>
  ) : (
    <span class="badge stale">Not translated</span>
  );

const textLabels = { title: 'Title', introText: 'Introduction', rightsText: "The principal's rights", complaintText: 'How to complain' } as const;
type TextKey = keyof typeof textLabels;

/** Every translatable text of the notice: its key as the API names it, its label and the English. */
const rowsOf = (notice: Detail) => [
  ...(Object.keys(textLabels) as TextKey[]).map((key) => ({ key, label: textLabels[key], english: notice[key], long: key !== 'title' })),
  ...notice.purposes.flatMap((purpose) => [
    { key: `purposes.${purpose.id}.name`, label: `Purpose ${purpose.name}: name`, english: purpose.name, long: false },
    { key: `purposes.${purpose.id}.description`, label: `Purpose ${purpose.name}: description`, english: purpose.description, long: true },
  ]),
];

const valuesOf = (translation: Translation | undefined, keys: string[]): Record<string, string> =>
  Object.fromEntries(
    keys.map((key) => {
      const [root, id, field] = key.split('.') as [string, string?, ('name' | 'description')?];
      const value = root === 'purposes' ? translation?.purposes?.[id!]?.[field!] : translation?.[root as TextKey];
      return [key, value ?? ''];
    }),
  );

/** What is filled in, as the API takes it (an empty text is left out, not sent empty). */
const bodyOf = (values: Record<string, string>) => {
  const body: Partial<Record<TextKey, string>> & { purposes?: Record<string, { name?: string; description?: string }> } = {};
  for (const [key, value] of Object.entries(values)) {
    if (!value.trim()) continue;
    const [root, id, field] = key.split('.') as [string, string?, ('name' | 'description')?];
    if (root === 'purposes') body.purposes = { ...body.purposes, [id!]: { ...body.purposes?.[id!], [field!]: value } };
    else body[root as TextKey] = value;
  }
  return body;
};

/** One language beside English; editable (and saved as a person's translation) while the notice is a draft. */
export const SideBySide = ({ notice, code, editable, onSaved }: { notice: Detail; code: string; editable: boolean; onSaved: () => void }) => {
  const language = languages.find((item) => item.code === code)!;
  const translation = notice.translations[code];
  const rows = rowsOf(notice);
  const [values, setValues] = useState(() => valuesOf(translation, rows.map((row) => row.key)));
  const { busy, error, run } = useAction({ staysBusy: true });
  const fields = fieldErrors(error);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="side-heading" class="panel">
      <h2 id="side-heading" tabIndex={-1} ref={heading}>
        English and {language.name} <SourceBadge translation={translation} />
      </h2>
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const body = bodyOf(values);
          await run(async () => {
            if (translation) await api.call('updateNoticeTranslation', { params: { id: notice.id, lang: code as LanguageCode }, body });
            else await api.call('addNoticeTranslation', { params: { id: notice.id }, body: { language: code as LanguageCode, ...body } });
            onSaved();
          });
        }}
      >
        {rows.map((row) => (
          <div class="side-by-side" key={row.key}>
            <div>
              <span class="label">{row.label} (English)</span>
              <p lang="en">{row.english}</p>
            </div>
            <TextField
              id={`tr-${row.key.replace(/\./g, '-')}`}
              name={row.key}
              label={`${row.label} (${language.name})`}
              value={values[row.key] ?? ''}
              onInput={(value) => setValues((previous) => ({ ...previous, [row.key]: value }))}
              fields={fields}
              multiline={row.long}
              lang={language.iso}
              readOnly={!editable}
            />
          </div>
        ))}
        <ErrorText error={error} />
        <OtherMessages fields={fields} shown={rows.map((row) => row.key)} />
        {editable ? (
          <button type="submit" disabled={busy}>
            Save {language.name} translation
          </button>
        ) : null}
      </form>
    </section>
  );
};
