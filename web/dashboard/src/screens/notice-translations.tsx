import { useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import type { DataOf } from '../api';
import { ErrorText, Heading, Loading, useAction, useData } from '../ui';
import { NoticePreview } from './notice-preview';
import { NoticeTabs } from './notice-status';
import { SideBySide, SourceBadge, scheduled } from './notice-side-by-side';
import { StandInNote } from './stand-in';

const AutoTranslate = ({ id, onDone }: { id: string; onDone: () => void }) => {
  const { busy, error, run } = useAction();
  const [result, setResult] = useState<DataOf<'autoTranslateNotice'>>();
  const needs = result?.languages.filter((language) => language.source === 'NEEDS_TRANSLATION').length ?? 0;
  return (
    <div class="panel">
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          run(async () => {
            setResult(await api.call('autoTranslateNotice', { params: { id } }));
            onDone();
          })
        }
      >
        Auto-translate
      </button>
      <span class="hint">Machine-drafts every language no person has written; languages the translator lacks keep the English text, marked as needing translation.</span>
      <ErrorText error={error} />
      <p role="status">
        {result
          ? `Drafted ${result.languages.length - needs} languages with ${result.translator}; ${needs} need a person's translation; ${result.keptManual.length} written by a person kept.`
          : ''}
      </p>
    </div>
  );
};

/** Every language's status, one language side by side with English, auto-translate and a preview. */
export default function NoticeTranslations({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const notice = useData(() => api.call('getNotice', { params: { id } }), [id]);
  // Which translator drafts: the local stand-in marks its drafts instead of translating, and the screen says so.
  const words = useData(() => api.call('getWordsOverview'));
  const standIn = words.data?.translator.standIn === true;
  const [language, setLanguage] = useState<string>();
  const data = notice.data;
  const editable = data?.status === 'DRAFT' && canWrite.value;
  return (
    <>
      <Heading title="Notice translations">Notice translations</Heading>
      <NoticeTabs id={id} />
      <ErrorText error={notice.error} />
      {notice.loading && !data ? <Loading what="the translations" /> : null}
      {data ? (
        <>
          <p>
            {data.title}. {editable ? 'Translations can be changed while the notice is a draft.' : 'Only a draft is translated; revise the notice to change them.'}
          </p>
          {editable ? <AutoTranslate id={id} onDone={notice.reload} /> : null}
          {standIn ? <StandInNote what={'drafts made with "Auto-translate" (source Machine draft)'} /> : null}
          <table class="languages">
            <caption>Languages</caption>
            <thead>
              <tr>
                <th scope="col">Language</th>
                <th scope="col">Status</th>
                <th scope="col">Title</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {scheduled.map(({ code, name }) => {
                const translation = data.translations[code];
                return (
                  <tr key={code} class={translation?.source === 'NEEDS_TRANSLATION' ? 'needs' : undefined}>
                    <th scope="row">{name}</th>
                    <td>
                      <SourceBadge translation={translation} />
                    </td>
                    <td>{translation?.title ?? '—'}</td>
                    <td>
                      <button type="button" class="link" aria-pressed={language === code} onClick={() => setLanguage(code)}>
                        Side by side<span class="visually-hidden"> with {name}</span>
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {language ? <SideBySide key={`${language}-${data.updatedAt}`} notice={data} code={language} editable={editable} onSaved={notice.reload} /> : null}
          <NoticePreview id={id} />
        </>
      ) : null}
    </>
  );
}
