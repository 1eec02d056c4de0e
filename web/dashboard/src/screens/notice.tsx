import { useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import { navigate } from '../router';
import type { DataOf } from '../api';
import { ErrorText, Heading, Link, Loading, formatDateTime, formatNumber, useAction, useData } from '../ui';
import { NoticeEditor } from './notice-editor';
import { NoticeTabs, StatusBadge } from './notice-status';
import { PublishDialog, PublishedNote, type Published } from './notice-publish';

type Detail = DataOf<'getNotice'>;

/** A notice as it reads, for what cannot (or may not) be edited. */
const NoticeView = ({ notice }: { notice: Detail }) => (
  <>
    <dl class="pairs">
      <dt>Introduction</dt>
      <dd>{notice.introText}</dd>
      <dt>Contact email</dt>
      <dd>{notice.contactEmail}</dd>
      <dt>Contact page</dt>
      <dd>{notice.contactUrl ?? '—'}</dd>
      <dt>The principal's rights</dt>
      <dd>{notice.rightsText}</dd>
      <dt>How to complain</dt>
      <dd>{notice.complaintText}</dd>
      <dt>Withdrawal page</dt>
      <dd>{notice.withdrawalUrl ?? 'The service’s own withdrawal page'}</dd>
    </dl>
    <h2>Purposes</h2>
    <ul>
      {notice.purposes.map((purpose) => (
        <li key={purpose.id}>
          <strong>{purpose.name}</strong> {purpose.isRequired ? '(required)' : '(optional)'}: {purpose.description}{' '}
          <span class="muted">Data: {purpose.dataCategories.join(', ')}.</span>
        </li>
      ))}
    </ul>
  </>
);

/** Start the next version of a published or archived notice: a DRAFT copy, opened at once. */
const Revise = ({ id }: { id: string }) => {
  const { busy, error, run } = useAction({ staysBusy: true });
  return (
    <p>
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          run(async () => {
            const draft = await api.call('reviseNotice', { params: { id } });
            navigate(`/notices/${draft.id}`);
          })
        }
      >
        Revise
      </button>
      <span class="hint">Makes a draft of the next version; this one stays as it is until that draft is published.</span>
      <ErrorText error={error} />
    </p>
  );
};

const Draft = ({ notice, onChanged }: { notice: Detail; onChanged: (result?: Published) => void }) => {
  const [publishing, setPublishing] = useState(false);
  if (!canWrite.value) return <NoticeView notice={notice} />;
  return (
    <>
      <NoticeEditor
        notice={notice}
        onSaved={() => onChanged()}
        actions={(saveFirst) => (
          <button
            type="button"
            class="secondary"
            onClick={async () => {
              if (await saveFirst()) setPublishing(true);
            }}
          >
            Publish
          </button>
        )}
      />
      {publishing ? <PublishDialog notice={notice} onClose={() => setPublishing(false)} onPublished={(result) => onChanged(result)} /> : null}
    </>
  );
};

export default function Notice({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const creating = id === 'new';
  const notice = useData(() => (creating ? Promise.resolve(undefined) : api.call('getNotice', { params: { id } })), [id]);
  const [published, setPublished] = useState<Published>();
  if (creating) {
    return (
      <>
        <Heading title="New notice">New notice</Heading>
        <p class="crumbs">
          <Link to="/notices">All notices</Link>
        </p>
        {canWrite.value ? (
          <NoticeEditor onSaved={(saved) => navigate(`/notices/${saved.id}`, { replace: true })} />
        ) : (
          <p>Your role may read notices but not create them.</p>
        )}
      </>
    );
  }
  const data = notice.data;
  return (
    <>
      <Heading title={data?.title ?? 'Notice'}>{data?.title ?? 'Notice'}</Heading>
      <NoticeTabs id={id} />
      <ErrorText error={notice.error} />
      {notice.loading && !data ? <Loading what="the notice" /> : null}
      {published ? <PublishedNote result={published} /> : null}
      {data ? (
        <>
          <p class="summary">
            <StatusBadge status={data.status} /> <span>Version {data.versionNumber ?? '— (not yet published)'}</span> ·{' '}
            <span>{formatNumber(data.consentCount)} consents</span> · <span>Published {formatDateTime(data.publishedAt)}</span>
          </p>
          {data.status === 'DRAFT' ? (
            <Draft
              notice={data}
              onChanged={(result) => {
                setPublished(result);
                notice.reload();
              }}
            />
          ) : (
            <>
              {canWrite.value ? <Revise id={id} /> : null}
              <NoticeView notice={data} />
            </>
          )}
        </>
      ) : null}
    </>
  );
}
