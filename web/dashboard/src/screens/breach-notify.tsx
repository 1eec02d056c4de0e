import { useState } from 'preact/hooks';
import { languages } from '../../../../shared/i18n/languages';
import { api, canWrite } from '../session';
import { ErrorText, fieldErrors, formatDateTime, useAction } from '../ui';
import { progressText, type Breach } from './breach-parts';
import { Field } from './parts';

const textFields = [
  ['whatHappened', 'What happened, in plain words for them (a)'],
  ['consequences', 'What this may mean for them (b)'],
  ['mitigation', 'What you have done and are doing (c)'],
  ['safetySteps', 'What they can do to protect themselves (d)'],
] as const;
type TextName = (typeof textFields)[number][0];
const empty = { whatHappened: '', consequences: '', mitigation: '', safetySteps: '' };

/**
 * "Notify affected principals": the words of Rule 7(1)'s items (a) to (e) written for principals,
 * in English and optionally one more language, a preview of the mail as a principal gets it, then
 * the run's live progress (the screen reloads the breach while it runs). The register's own
 * description (where, which systems) is the team's and never reaches a principal.
 */
export const Notify = ({ breach, onStarted }: { breach: Breach; onStarted: () => void }) => {
  const [english, setEnglish] = useState<Record<TextName, string>>(empty);
  const [contact, setContact] = useState('');
  const [language, setLanguage] = useState('');
  const [translated, setTranslated] = useState<Record<TextName, string>>(empty);
  const { busy, error, run } = useAction();
  const preview = useAction();
  const [mail, setMail] = useState<{ language: string; subject: string; text: string }>();
  const problems = fieldErrors(error ?? preview.error);
  const { intimation } = breach;
  const running = intimation.status === 'RUNNING';
  const mayStart = canWrite.value && breach.status === 'OPEN' && !running;

  const body = () => ({ ...english, contact, ...(language ? { translations: { [language]: translated } } : {}) });
  const submit = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      await api.call('intimateBreachPrincipals', { params: { breachId: breach.breachId }, body: body() });
      onStarted();
    });
  };
  const showPreview = (previewLanguage: string) =>
    preview.run(async () => setMail(await api.call('previewBreachIntimation', { params: { breachId: breach.breachId }, body: { ...body(), previewLanguage: (previewLanguage || 'EN') as 'EN' } })));

  const textarea = (prefix: string, name: TextName, label: string, values: Record<TextName, string>, change: (next: Record<TextName, string>) => void, problem?: string) => (
    <Field key={`${prefix}-${name}`} id={`notify-${prefix}-${name}`} label={label} problem={problem}>
      {(control) => <textarea {...control} rows={3} class="prose" maxLength={1000} value={values[name]} onInput={(event) => change({ ...values, [name]: event.currentTarget.value })} />}
    </Field>
  );

  return (
    <section aria-labelledby="notify-heading" class="panel">
      <h2 id="notify-heading">Affected principals</h2>
      <p>
        Each affected principal gets one mail with what happened, the likely consequences, what you are doing, what they can do and whom to contact, in the language of their latest consent
        when you give it. They get only the texts below, with when it happened and when you became aware: never the breach's own description above, which is for your team and the Board.
        Nobody is intimated twice.
      </p>
      <p>
        Principals without a known email are handed to your systems as <code>breach.principals</code> webhook events, and count as reached only once your systems acknowledge them.
      </p>
      {!intimation.handoff.webhookSubscribed ? (
        <p class="notice" role="note">
          No webhook of yours takes <code>breach.principals</code>: principals without an email cannot be told through the service, and stay not reached. Add one under Webhooks, or tell them yourself.
        </p>
      ) : null}
      <div role="status" aria-live="polite">
        {intimation.status === 'NOT_STARTED' ? <p>No principal has been intimated yet.</p> : null}
        {intimation.status !== 'NOT_STARTED' ? (
          <p>
            <strong>{running ? 'Intimating…' : 'Intimated.'}</strong> {progressText(intimation.progress)}
            {intimation.finishedAt && !running ? ` (last run finished ${formatDateTime(intimation.finishedAt)})` : ''}
          </p>
        ) : null}
      </div>
      {intimation.progress.awaitingTenant > 0 && !running ? (
        <p class="notice" role="note">
          {intimation.handoff.webhookSubscribed
            ? `${intimation.progress.awaitingTenant} principal(s) without an email were handed to your systems, which have not acknowledged them yet: they are not counted as reached.`
            : `${intimation.progress.awaitingTenant} principal(s) without an email have not been told: no webhook of yours takes breach.principals. The detailed report says so.`}
        </p>
      ) : null}
      {running ? <progress aria-label="Intimation running" /> : null}
      {mayStart ? (
        <form onSubmit={submit} noValidate>
          {textFields.map(([name, label]) => textarea('en', name, label, english, setEnglish, problems[name]))}
          <Field id="notify-contact" label="Whom to contact (e)" problem={problems.contact}>
            {(control) => <input {...control} class="wide-text" maxLength={500} value={contact} onInput={(event) => setContact(event.currentTarget.value)} />}
          </Field>
          <Field id="notify-language" label="Also in (optional)" hint="Principals whose latest consent was in this language get the mail in it.">
            {(control) => (
              <select {...control} value={language} onChange={(event) => setLanguage(event.currentTarget.value)}>
                <option value="">No other language</option>
                {languages
                  .filter((entry) => entry.code !== 'EN')
                  .map((entry) => (
                    <option key={entry.code} value={entry.code}>
                      {entry.name}
                    </option>
                  ))}
              </select>
            )}
          </Field>
          {language ? (
            <fieldset lang={languages.find((entry) => entry.code === language)?.iso}>
              <legend>Texts in {languages.find((entry) => entry.code === language)?.name}</legend>
              {textFields.map(([name, label]) => textarea(language, name, label, translated, setTranslated, problems[`translations.${language}.${name}`]))}
            </fieldset>
          ) : null}
          <ErrorText error={error ?? preview.error} />
          <div class="actions">
            <button type="button" class="secondary" disabled={preview.busy} onClick={() => showPreview('')}>
              Preview the mail
            </button>
            {language ? (
              <button type="button" class="secondary" disabled={preview.busy} onClick={() => showPreview(language)}>
                Preview in {languages.find((entry) => entry.code === language)?.name}
              </button>
            ) : null}
            <button type="submit" disabled={busy}>
              {intimation.runs > 0 ? 'Notify principals not reached yet' : 'Notify affected principals'}
            </button>
          </div>
          {mail ? (
            <section aria-labelledby="mail-preview-heading" class="mail-preview" lang={languages.find((entry) => entry.code === mail.language)?.iso}>
              <h3 id="mail-preview-heading" lang="en">
                The mail a principal gets
              </h3>
              <p>
                <strong lang="en">Subject:</strong> {mail.subject}
              </p>
              <p class="wrap-text">{mail.text}</p>
            </section>
          ) : null}
        </form>
      ) : null}
    </section>
  );
};
