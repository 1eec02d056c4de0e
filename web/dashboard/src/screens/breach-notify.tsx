import { useState } from 'preact/hooks';
import { languages } from '../../../../shared/i18n/languages';
import { api, canWrite } from '../session';
import { ErrorText, fieldErrors, formatDateTime, useAction } from '../ui';
import { progressText, type Breach } from './breach-parts';
import { Field } from './parts';

const textFields = [
  ['consequences', 'What this may mean for them (b)'],
  ['mitigation', 'What you have done and are doing (c)'],
  ['safetySteps', 'What they can do to protect themselves (d)'],
] as const;
type TextName = (typeof textFields)[number][0];
const empty = { consequences: '', mitigation: '', safetySteps: '' };

/**
 * "Notify affected principals": the words of Rule 7(1)'s items (b) to (e), in English and
 * optionally one more language, then the run's live progress (the screen reloads the breach
 * while it runs).
 */
export const Notify = ({ breach, onStarted }: { breach: Breach; onStarted: () => void }) => {
  const [english, setEnglish] = useState<Record<TextName, string>>(empty);
  const [contact, setContact] = useState('');
  const [language, setLanguage] = useState('');
  const [translated, setTranslated] = useState<Record<TextName, string>>(empty);
  const { busy, error, run } = useAction();
  const problems = fieldErrors(error);
  const { intimation } = breach;
  const running = intimation.status === 'RUNNING';
  const mayStart = canWrite.value && breach.status === 'OPEN' && !running;

  const submit = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      await api.call('intimateBreachPrincipals', {
        params: { breachId: breach.breachId },
        body: { ...english, contact, ...(language ? { translations: { [language]: translated } } : {}) },
      });
      onStarted();
    });
  };

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
        when you give it. Principals without a known email are handed to your systems as <code>breach.principals</code> webhook events. Nobody is intimated twice.
      </p>
      <div role="status" aria-live="polite">
        {intimation.status === 'NOT_STARTED' ? <p>No principal has been intimated yet.</p> : null}
        {intimation.status !== 'NOT_STARTED' ? (
          <p>
            <strong>{running ? 'Intimating…' : 'Intimated.'}</strong> {progressText(intimation.progress)}
            {intimation.finishedAt && !running ? ` (last run finished ${formatDateTime(intimation.finishedAt)})` : ''}
          </p>
        ) : null}
      </div>
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
          <ErrorText error={error} />
          <button type="submit" disabled={busy}>
            {intimation.runs > 0 ? 'Notify principals not reached yet' : 'Notify affected principals'}
          </button>
        </form>
      ) : null}
    </section>
  );
};
