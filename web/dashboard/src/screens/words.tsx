import { useEffect, useState } from 'preact/hooks';
import type { DataOf } from '../api';
import { api, canWrite } from '../session';
import { ErrorText, Heading, Loading, formatDateTime, useAction, useData } from '../ui';
import { Choices, useSaid } from './parts';
import { StandInNote } from './stand-in';
import { languageName, WordsEditor } from './words-editor';

type Overview = DataOf<'getWordsOverview'>;
type Unreviewed = Overview['unreviewed'];

const statusText: Record<Overview['languages'][number]['status'], [string, string]> = {
  DEFAULT: ['No words yet', 'stale'],
  BUILT_IN: ["The service's words", 'partial'],
  DRAFT: ['Machine draft, to review', 'partial'],
  NEEDS_TRANSLATION: ['Needs translation', 'withdrawn'],
  REVIEWED: ['Reviewed by a person', 'active'],
};

const choices: { value: Unreviewed; label: string; hint: string }[] = [
  {
    value: 'BUILT_IN',
    label: "The service's words until a person reviews them",
    hint: "Every scheduled language starts with the service's own words: translated by an AI assistant and checked automatically, not yet by a native speaker (open a language to see how). Your reviewed words always come first.",
  },
  { value: 'ENGLISH', label: 'English until a person reviews them', hint: "Only words a person of yours reviewed are shown; elsewhere your English, marked as English for screen readers. Confirm or change the service's words in a language to show them." },
  { value: 'MACHINE_DRAFTS', label: 'Machine drafts until a person reviews them', hint: "Your machine drafts are shown as they are; a word without a draft shows the service's word." },
];

/** What principals are shown of a language: English, the service's words alone, or words of the tenant's own (over the service's). */
const shownText = (overview: Overview, language: Overview['languages'][number]) => {
  if (!language.shown) return 'No: English';
  const own = language.counts.REVIEWED > 0 || (overview.unreviewed === 'MACHINE_DRAFTS' && language.counts.DRAFT > 0);
  return language.language === 'EN' || own ? 'Yes' : "Yes: the service's words";
};


/** The setting for words nobody reviewed: every role sees it, DPO and SUPER_ADMIN change it. */
const UnreviewedSetting = ({ current, onSaved }: { current: Unreviewed; onSaved: () => void }) => {
  const [chosen, setChosen] = useState(current);
  const { busy, error, run } = useAction();
  const { say, line } = useSaid();
  const writer = canWrite.value;
  useEffect(() => setChosen(current), [current]);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void run(async () => {
          await api.call('saveWordsSettings', { body: { unreviewed: chosen } });
          say('Setting saved. The widget, the pages and the mails follow it from now on.');
          onSaved();
        });
      }}
    >
      <fieldset disabled={!writer}>
        <legend>Words nobody has reviewed yet</legend>
        <Choices name="unreviewed" choices={choices} chosen={chosen} onChoose={setChosen} />
      </fieldset>
      <ErrorText error={error} />
      {writer ? (
        <button type="submit" disabled={busy || chosen === current}>
          Save setting
        </button>
      ) : null}
      {line}
    </form>
  );
};

/** Every language with its status and counts; a writer drafts and opens a language to review it. */
const LanguageTable = ({ overview, onOpen, onDrafted }: { overview: Overview; onOpen: (language: string) => void; onDrafted: (said: string) => void }) => {
  const { busy, error, run } = useAction();
  const writer = canWrite.value;
  const draft = (language: string) =>
    run(async () => {
      const drafted = await api.call('draftWords', { body: { language } });
      onDrafted(`${languageName(language)} drafted: ${statusText[drafted.status][0].toLowerCase()}.`);
    });
  return (
    <section aria-labelledby="languages-heading">
      <h2 id="languages-heading">Languages</h2>
      <table class="words-languages">
        <thead>
          <tr>
            <th scope="col">Language</th>
            <th scope="col">Status</th>
            <th scope="col">Reviewed</th>
            <th scope="col">Machine drafts</th>
            <th scope="col">Need translation</th>
            <th scope="col">Shown to people</th>
            <th scope="col">Updated</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {overview.languages.map((language) => (
            <tr key={language.language}>
              <th scope="row">{languageName(language.language)}</th>
              <td>
                <span class={`badge ${statusText[language.status][1]}`}>{language.language === 'EN' && language.status === 'DEFAULT' ? 'Built-in English' : statusText[language.status][0]}</span>
              </td>
              <td>
                {language.counts.REVIEWED} of {overview.total}
              </td>
              <td>{language.counts.DRAFT}</td>
              <td>{language.counts.NEEDS_TRANSLATION}</td>
              <td>{shownText(overview, language)}</td>
              <td>{formatDateTime(language.updatedAt)}</td>
              <td class="row-actions">
                <button type="button" class="link" onClick={() => onOpen(language.language)}>
                  {writer ? 'Edit' : 'View'}
                  <span class="visually-hidden"> {languageName(language.language)} words</span>
                </button>
                {writer && language.language !== 'EN' && language.status !== 'REVIEWED' ? (
                  <button type="button" class="link" disabled={busy} onClick={() => draft(language.language)}>
                    Draft
                    <span class="visually-hidden"> {languageName(language.language)}</span>
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorText error={error} />
      {writer && overview.translator.standIn ? <StandInNote what={'drafts made with "Draft"'} /> : null}
      {writer ? (
        <div class="actions">
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() =>
              run(async () => {
                const drafted = await api.call('draftAllWords');
                onDrafted(`Drafted ${drafted.languages.length} languages${drafted.keptReviewed.length ? `; reviewed words kept in ${drafted.keptReviewed.map(languageName).join(', ')}` : ''}.`);
              })
            }
          >
            Draft all languages
          </button>
        </div>
      ) : null}
    </section>
  );
};

/**
 * "Words people see": every word a principal reads around the tenant's notices (the widget's
 * banners, the withdrawal and rights pages, the mails), per language, with its status; the
 * setting for words nobody reviewed; drafting; and a language's words side by side with English.
 */
export default function Words() {
  const loaded = useData(() => api.call('getWordsOverview'));
  const [open, setOpen] = useState<string>();
  const { say, line } = useSaid();
  const overview = loaded.data;
  return (
    <>
      <Heading title="Words people see">Words people see</Heading>
      <p>
        Every word people read around your notices: the widget's notice and cookie banners, the withdrawal and rights pages, and the mails they get. Each of the 22 scheduled
        languages comes with the service's own words; you can keep them, change any word, or show English until a person of yours reviews. A person's save makes a word yours,
        reviewed. Your notices, purposes and breach texts stay yours to translate.
      </p>
      {loaded.loading && !overview ? <Loading what="the words" /> : null}
      <ErrorText error={loaded.error} />
      {line}
      {overview ? (
        <>
          <UnreviewedSetting current={overview.unreviewed} onSaved={loaded.reload} />
          <LanguageTable
            overview={overview}
            onOpen={setOpen}
            onDrafted={(said) => {
              say(said);
              loaded.reload();
            }}
          />
          {open ? <WordsEditor key={open} language={open} surfaces={overview.surfaces} standIn={overview.translator.standIn} onSaved={loaded.reload} onClose={() => setOpen(undefined)} /> : null}
        </>
      ) : null}
    </>
  );
}
