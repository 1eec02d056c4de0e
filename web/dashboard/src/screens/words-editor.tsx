import { useEffect, useRef, useState } from 'preact/hooks';
import { directionOf, isLanguageCode, isoOf, languages } from '../../../../shared/i18n/languages';
import type { DataOf } from '../api';
import { api, canWrite } from '../session';
import { ErrorText, Loading, fieldErrors, useAction, useData } from '../ui';
import { useSaid } from './parts';
import { StandInNote } from './stand-in';

type LanguageWords = DataOf<'getLanguageWords'>;

export const languageName = (code: string) => languages.find((language) => language.code === code)?.name ?? code;
type Word = LanguageWords['words'][number];
type Surface = DataOf<'getWordsOverview'>['surfaces'][number];

const wordStatus: Record<Word['status'], [string, string]> = {
  DEFAULT: ['English stands in', 'stale'],
  BUILT_IN: ["The service's word", 'partial'],
  DRAFT: ['Machine draft', 'partial'],
  NEEDS_TRANSLATION: ['Needs translation', 'withdrawn'],
  REVIEWED: ['Reviewed', 'active'],
};

const shownFrom: Record<Word['shownFrom'], string> = {
  REVIEWED: 'your reviewed word',
  DRAFT: 'your machine draft',
  BUILT_IN: "the service's word",
  ENGLISH: 'your English',
};

/**
 * What a field starts with: the language's own word (a machine draft to review, or one reviewed),
 * else the service's built-in word; never the English copy kept for a word still to translate.
 */
const startingText = (word: Word, english: boolean) => (english ? word.english : word.status === 'DRAFT' || word.status === 'REVIEWED' ? (word.text ?? '') : (word.builtIn ?? ''));

/** A word a person may accept as it is: one of this language no person of the tenant's reviewed (a machine draft, or the service's word). */
const confirmable = (word: Word, english: boolean) => !english && word.status !== 'REVIEWED' && startingText(word, english) !== '';

/**
 * One surface's words side by side: the English on the left, the language's word on the right.
 * Saving sends only the words a person changed here, or confirmed as they are with the word's own
 * "Confirm" box (a machine draft accepted unchanged), and each of those becomes REVIEWED; every
 * other word keeps its status (issue 37: one save once marked the whole screen reviewed). An empty
 * field sends nothing, so a word still to translate stays as it is.
 */
const SurfaceForm = ({ view, surface, standIn, onSaved }: { view: LanguageWords; surface: Surface; standIn: boolean; onSaved: (view: LanguageWords, saved: number) => void }) => {
  const english = view.language === 'EN';
  const words = view.words.filter((word) => word.surface === surface.id);
  const starting = Object.fromEntries(words.map((word) => [word.key, startingText(word, english)]));
  const [texts, setTexts] = useState<Record<string, string>>(() => ({ ...starting }));
  const [confirmed, setConfirmed] = useState<ReadonlySet<string>>(() => new Set());
  const { busy, error, run } = useAction();
  const problems = fieldErrors(error);
  const writer = canWrite.value;
  const tag = isLanguageCode(view.language) ? isoOf(view.language) : 'en';
  const changed = words.filter((word) => {
    const text = (texts[word.key] ?? '').trim();
    if (text === '') return false;
    // A person's edit, or an explicit confirmation of a word they did not write (English has none: its defaults stand as they are).
    return text !== (starting[word.key] ?? '').trim() || (!english && confirmed.has(word.key));
  });
  return (
    <form
      class="words-form"
      aria-labelledby={`surface-${surface.id}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (changed.length === 0) return;
        void run(async () => {
          const labels = Object.fromEntries(changed.map((word) => [word.key, (texts[word.key] ?? '').trim()]));
          onSaved(await api.call('saveLanguageWords', { params: { language: view.language }, body: { labels } }), changed.length);
        });
      }}
    >
      <h3 id={`surface-${surface.id}`}>{surface.name}</h3>
      {words.map((word) => {
        const id = `word-${word.key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
        const problem = problems[`labels.${word.key}`];
        return (
          <div class="word-row" key={word.key}>
            <div class="word-english">
              <label for={id}>
                <code>{word.key}</code>
                <span class={`badge ${wordStatus[word.status][1]}`}>{standIn && word.status === 'DRAFT' ? 'Local stand-in, not a translation' : wordStatus[word.status][0]}</span>
              </label>
              <p lang="en" id={`${id}-english`}>
                {word.english}
              </p>
              {word.placeholders.length ? (
                <p class="hint" id={`${id}-slots`}>
                  Keep {word.placeholders.map((slot) => `{${slot}}`).join(', ')} as written.
                </p>
              ) : null}
              {english ? null : <p class="hint">People read {shownFrom[word.shownFrom]}.</p>}
            </div>
            <div>
              <textarea
                id={id}
                lang={tag}
                dir={directionOf(view.language)}
                rows={word.english.length > 120 ? 4 : 2}
                readOnly={!writer}
                value={texts[word.key]}
                aria-describedby={[problem ? `${id}-problem` : '', `${id}-english`, word.placeholders.length ? `${id}-slots` : ''].filter(Boolean).join(' ')}
                aria-invalid={problem ? true : undefined}
                onInput={(event) => setTexts({ ...texts, [word.key]: event.currentTarget.value })}
              />
              {problem ? (
                <span class="field-error" id={`${id}-problem`}>
                  {problem}
                </span>
              ) : null}
              {writer && confirmable(word, english) ? (
                <label class="check" for={`${id}-confirm`}>
                  <input
                    type="checkbox"
                    id={`${id}-confirm`}
                    checked={confirmed.has(word.key)}
                    onChange={(event) => {
                      const next = new Set(confirmed);
                      if (event.currentTarget.checked) next.add(word.key);
                      else next.delete(word.key);
                      setConfirmed(next);
                    }}
                  />{' '}
                  Confirm as reviewed<span class="visually-hidden"> ({word.key})</span>
                </label>
              ) : null}
            </div>
          </div>
        );
      })}
      <ErrorText error={error} />
      {writer ? (
        <button type="submit" disabled={busy || changed.length === 0}>
          Save {surface.name.toLowerCase()} words<span class="visually-hidden"> in {languageName(view.language)}</span>
        </button>
      ) : null}
    </form>
  );
};

/** Who made the service's words of a language and how they were checked: what a DPO reads before relying on them. */
const BuiltInProvenance = ({ name, builtIn }: { name: string; builtIn: NonNullable<LanguageWords['builtIn']> }) => {
  const { provenance } = builtIn;
  return (
    <div class={provenance.confidence === 'lower' ? 'notice' : 'panel'}>
      <p>
        The service's words in {name} ({builtIn.script}), {provenance.translatedOn}: {provenance.translatedBy}.{' '}
        {provenance.reviewedBy ? `Reviewed by ${provenance.reviewedBy}, ${provenance.reviewedOn ?? ''}.` : 'Not yet reviewed by a native speaker.'}
        {provenance.confidence === 'lower' ? " The translator's command of this language is limited: have a speaker review it, or show English until then." : ''}
      </p>
      <details>
        <summary>How they were made and checked</summary>
        <p>{provenance.method}</p>
        <ul>
          {provenance.checks.map((check) => (
            <li key={check}>{check}</li>
          ))}
        </ul>
        <p>{provenance.note}</p>
      </details>
    </div>
  );
};

/** A language's words, one surface at a time, beside the English. */
export const WordsEditor = ({ language, surfaces, standIn, onSaved, onClose }: { language: string; surfaces: Surface[]; standIn: boolean; onSaved: () => void; onClose: () => void }) => {
  const loaded = useData(() => api.call('getLanguageWords', { params: { language } }), [language]);
  const [view, setView] = useState<LanguageWords>();
  const [surfaceId, setSurfaceId] = useState(surfaces[0]?.id ?? '');
  const { say, line } = useSaid();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => setView(loaded.data), [loaded.data]);
  useEffect(() => heading.current?.focus(), []);
  const surface = surfaces.find((candidate) => candidate.id === surfaceId) ?? surfaces[0];
  const name = languageName(language);
  return (
    <section class="card words-editor" aria-labelledby="editor-heading">
      <h2 id="editor-heading" tabIndex={-1} ref={heading}>
        {name} words
      </h2>
      {view?.builtIn ? <BuiltInProvenance name={name} builtIn={view.builtIn} /> : null}
      {view && standIn && view.counts.DRAFT > 0 ? <StandInNote what="the machine drafts here" /> : null}
      {view ? (
        <p class="muted">
          {view.counts.REVIEWED} reviewed, {view.counts.DRAFT} machine drafts, {view.counts.NEEDS_TRANSLATION} to translate, {view.words.filter((word) => word.status === 'BUILT_IN').length} the service's words.{' '}
          {language === 'EN'
            ? 'Your English stands in wherever another language has no word shown.'
            : "A save marks reviewed only the words you changed, and those whose Confirm box you ticked; every other word keeps its status. A word with an empty field is shown in English."}
        </p>
      ) : null}
      <div class="field">
        <label for="words-surface">Where people read them</label>
        <select id="words-surface" value={surfaceId} onChange={(event) => setSurfaceId(event.currentTarget.value)}>
          {surfaces.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name} ({candidate.count})
            </option>
          ))}
        </select>
      </div>
      {loaded.loading && !view ? <Loading what={`the ${name} words`} /> : null}
      <ErrorText error={loaded.error} />
      {view && surface ? (
        <SurfaceForm
          key={`${surface.id}-${view.updatedAt}`}
          view={view}
          surface={surface}
          standIn={standIn}
          onSaved={(saved, count) => {
            setView(saved);
            say(`${surface.name}: ${count === 1 ? '1 word' : `${count} words`} saved in ${name} and marked reviewed; the others keep their status.`);
            onSaved();
          }}
        />
      ) : null}
      {line}
      <div class="actions">
        <button type="button" class="secondary" onClick={onClose}>
          Close {name}
        </button>
      </div>
    </section>
  );
};
