import { useState } from 'preact/hooks';
import { api } from '../session';
import type { DataOf } from '../api';
import { ErrorText } from '../ui';
import { languages, type LanguageCode } from '../../../../shared/i18n/languages';

type Preview = DataOf<'previewNotice'>;

/** The notice as a principal would read it in one language (English wherever that language has no text). */
const Rendered = ({ preview }: { preview: Preview }) => {
  const language = languages.find((item) => item.code === preview.language);
  const fallback = new Set(preview.fallbackFields);
  // Text still in English is marked as English, so a screen reader reads it in the right voice.
  const langOf = (field: string) => (fallback.has(field) ? 'en' : language?.iso);
  return (
    <article class="preview" aria-labelledby="preview-title">
      <h3 id="preview-title" lang={langOf('title')}>
        {preview.title}
      </h3>
      <p lang={langOf('introText')}>{preview.introText}</p>
      <ul>
        {preview.purposes.map((purpose) => (
          <li key={purpose.id}>
            <strong>{purpose.name}</strong> {purpose.required ? '(required)' : '(optional)'}: {purpose.description}{' '}
            <span class="muted">({purpose.dataCategories.join(', ')})</span>
          </li>
        ))}
      </ul>
      <p lang={langOf('rightsText')}>{preview.rightsText}</p>
      <p lang={langOf('complaintText')}>{preview.complaintText}</p>
      <p>
        Contact: {preview.contactEmail}
        {preview.withdrawalUrl ? ` · Withdraw: ${preview.withdrawalUrl}` : ''}
      </p>
      {preview.fallbackFields.length > 0 ? <p class="hint">Shown in English (no {language?.name} text): {preview.fallbackFields.join(', ')}.</p> : null}
    </article>
  );
};

export const NoticePreview = ({ id }: { id: string }) => {
  const [lang, setLang] = useState<LanguageCode>('HI');
  const [preview, setPreview] = useState<Preview>();
  const [error, setError] = useState<unknown>();
  return (
    <section aria-labelledby="preview-heading" class="panel">
      <h2 id="preview-heading">Preview</h2>
      <form
        class="inline-form"
        onSubmit={async (event) => {
          event.preventDefault();
          setError(undefined);
          try {
            setPreview(await api.call('previewNotice', { params: { id }, query: { lang } }));
          } catch (failure) {
            setError(failure);
          }
        }}
      >
        <div class="field">
          <label for="preview-language">Preview language</label>
          <select id="preview-language" value={lang} onChange={(event) => setLang(event.currentTarget.value as LanguageCode)}>
            {languages.map((language) => (
              <option key={language.code} value={language.code}>
                {language.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="secondary">
          Show preview
        </button>
      </form>
      <ErrorText error={error} />
      {preview ? <Rendered preview={preview} /> : null}
    </section>
  );
};
