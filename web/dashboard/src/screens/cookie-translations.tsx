import { useState } from 'preact/hooks';
import { languages } from '../../../../shared/i18n/languages';
import { api, canWrite } from '../session';
import { Dialog, DialogActions, ErrorText, fieldErrors, formatDateTime, useAction } from '../ui';
import { FieldError, problemOf, type LabelSet } from './cookie-data';

const nameOf = (code: string) => languages.find((language) => language.iso === code)?.name ?? code;
const statusText: Record<LabelSet['status'], [string, string]> = {
  DEFAULT: ['Built-in English', 'active'],
  DRAFT: ['Machine draft, to review', 'partial'],
  NEEDS_TRANSLATION: ['Needs translation (English shown)', 'withdrawn'],
  REVIEWED: ['Reviewed', 'active'],
};

/** Every label of one language in a dialog; saving makes the set REVIEWED. */
const EditLabels = ({ set, english, onClose, onSaved }: { set: LabelSet; english: LabelSet | undefined; onClose: () => void; onSaved: () => void }) => {
  const [labels, setLabels] = useState<Record<string, string>>(set.labels);
  const { busy, error, run } = useAction({ staysBusy: true });
  const problems = fieldErrors(error);
  return (
    <Dialog title={`${nameOf(set.language)} labels`} onClose={onClose}>
      <form
        class="labels-form"
        onSubmit={async (event) => {
          event.preventDefault();
          await run(async () => {
            await api.call('saveCmpTranslation', { params: { language: set.language }, body: { labels } });
            onSaved();
          });
        }}
      >
        {Object.keys(set.labels).map((key, index) => (
          <div class="field" key={key}>
            <label for={`label-${index}`}>{key}</label>
            {set.language !== 'en' && english ? <span class="hint">English: {english.labels[key]}</span> : null}
            <textarea id={`label-${index}`} rows={2} value={labels[key]} onInput={(event) => setLabels({ ...labels, [key]: event.currentTarget.value })} />
            <FieldError id={`label-${index}-error`} message={problemOf(problems, `labels.${key}`)} />
          </div>
        ))}
        <ErrorText error={error} />
        <DialogActions submit="Save labels" busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
};

export const Translations = ({ labelSets, configured, onChanged }: { labelSets: LabelSet[]; configured: string[]; onChanged: () => void }) => {
  const [editing, setEditing] = useState<LabelSet>();
  const { busy, error, run } = useAction();
  const [said, setSaid] = useState('');
  const writer = canWrite.value;
  const english = labelSets.find((set) => set.language === 'en');
  const missing = configured.filter((code) => !labelSets.some((set) => set.language === code));
  const act = (work: () => Promise<string>) => {
    setSaid('');
    return run(async () => {
      setSaid(await work());
      onChanged();
    });
  };
  // A reviewed language is never drafted over from here (the API refuses it without replaceReviewed).
  const draft = (language: string) =>
    act(async () => {
      const set = await api.call('draftCmpTranslation', { body: { language } });
      return `${nameOf(language)} drafted: ${statusText[set.status][0]}.`;
    });
  return (
    <section aria-labelledby="translations-heading">
      <h2 id="translations-heading">Label translations</h2>
      <p>Every word of the banner, per language. Drafts are machine translations from your English labels; a person's save marks a language reviewed.</p>
      {missing.length ? <p class="warning">No labels yet for {missing.map(nameOf).join(', ')}: the banner shows English there until they are drafted or written.</p> : null}
      <table class="translations">
        <thead>
          <tr>
            <th scope="col">Language</th>
            <th scope="col">Status</th>
            <th scope="col">Updated</th>
            {writer ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {labelSets.map((set) => (
            <tr key={set.language}>
              <th scope="row">{nameOf(set.language)}</th>
              <td>
                <span class={`badge ${statusText[set.status][1]}`}>{statusText[set.status][0]}</span>
              </td>
              <td>{formatDateTime(set.updatedAt)}</td>
              {writer ? (
                <td class="row-actions">
                  <button type="button" class="link" onClick={() => setEditing(set)}>
                    Edit<span class="visually-hidden"> {nameOf(set.language)} labels</span>
                  </button>
                  {set.language !== 'en' && set.status !== 'REVIEWED' ? (
                    <button type="button" class="link" disabled={busy} onClick={() => draft(set.language)}>
                      Draft again<span class="visually-hidden"> {nameOf(set.language)}</span>
                    </button>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {writer ? (
        <div class="actions">
          {missing.filter((code) => code !== 'en').map((code) => (
            <button key={code} type="button" class="secondary" disabled={busy} onClick={() => draft(code)}>
              Draft {nameOf(code)}
            </button>
          ))}
          <button type="button" class="secondary" disabled={busy} onClick={() => act(async () => `Drafted ${(await api.call('draftAllCmpTranslations')).languages.length} languages; reviewed ones were kept.`)}>
            Draft all languages
          </button>
        </div>
      ) : null}
      <ErrorText error={error} />
      <p role="status" class="muted">
        {said}
      </p>
      {editing ? (
        <EditLabels
          set={editing}
          english={english}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            setSaid(`${nameOf(editing.language)} labels saved and marked reviewed.`);
            onChanged();
          }}
        />
      ) : null}
    </section>
  );
};
