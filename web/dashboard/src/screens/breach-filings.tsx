import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { api, canWrite } from '../session';
import { ErrorText, Loading, fieldErrors, formatDateTime, useAction, useData } from '../ui';
import { DocumentValue, clockText, isoOfLocal, type Breach } from './breach-parts';
import { ConfirmDialog, Field } from './parts';

type Stage = 'INTIMATION' | 'DETAILED_REPORT';

const stages = {
  INTIMATION: { title: 'Board intimation', rule: 'Rule 7(2)(a): a description of the breach, without delay', file: 'File Board intimation', call: 'fileBoardIntimation' },
  DETAILED_REPORT: { title: 'Detailed report', rule: 'Rule 7(2)(b): items (i) to (vi), within 72 hours of becoming aware', file: 'File detailed report', call: 'fileBoardReport' },
} as const;

/** One filing with the Board: filed (frozen), or a preview of what would be filed now and what it still lacks. */
const Filing = ({ breach, stage, onFiled }: { breach: Breach; stage: Stage; onFiled: () => void }) => {
  const filing = useData(() => api.call('getBoardReport', { params: { breachId: breach.breachId }, query: { stage } }), [breach.updatedAt, breach.intimation.status]);
  const { busy, error, run } = useAction();
  const refused = Object.values(fieldErrors(error));
  const info = stages[stage];
  const headingId = `filing-${stage}`;
  const clock = stage === 'INTIMATION' ? breach.clocks.boardIntimation : breach.clocks.detailedReport;
  const missing = Object.values(filing.data?.missing ?? {});
  return (
    <section aria-labelledby={headingId} class="panel">
      <h2 id={headingId}>{info.title}</h2>
      <p class="muted">{info.rule}</p>
      <p>{clockText(clock, stage)}</p>
      <ErrorText error={filing.error} />
      {filing.loading && !filing.data ? <Loading what={`the ${info.title.toLowerCase()}`} /> : null}
      {filing.data && !filing.data.filed ? (
        missing.length > 0 ? (
          <>
            <h3>Missing before it can be filed</h3>
            <ul>
              {missing.map((why) => (
                <li key={why}>{why}</li>
              ))}
            </ul>
          </>
        ) : (
          <p>Nothing is missing: it can be filed.</p>
        )
      ) : null}
      {filing.data ? (
        <details>
          <summary>{filing.data.filed ? 'The filed document' : 'Preview of the document'}</summary>
          <DocumentValue value={filing.data.document} />
        </details>
      ) : null}
      {canWrite.value && breach.status === 'OPEN' && filing.data && !filing.data.filed ? (
        <>
          <ErrorText error={error instanceof ApiError && refused.length > 0 ? new Error(`${error.message}: ${refused.join('; ')}`) : error} />
          <div class="actions">
            <button
              type="button"
              disabled={busy}
              aria-describedby={headingId}
              onClick={() =>
                run(async () => {
                  await api.call(info.call, { params: { breachId: breach.breachId }, body: {} });
                  onFiled();
                })
              }
            >
              {info.file}
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
};

/** The Board's extension of the detailed report: a new due time and the Board's reference. */
const Extension = ({ breach, onSaved }: { breach: Breach; onSaved: () => void }) => {
  const [until, setUntil] = useState('');
  const [reference, setReference] = useState('');
  const { busy, error, run } = useAction();
  const problems = fieldErrors(error);
  return (
    <section aria-labelledby="extension-heading" class="panel">
      <h2 id="extension-heading">Extension by the Board</h2>
      {breach.extension ? (
        <p>
          The Board allowed until {formatDateTime(breach.extension.grantedUntil)} (reference {breach.extension.reference}).
        </p>
      ) : null}
      <form
        class="inline-form"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          await run(async () => {
            await api.call('extendBreach', { params: { breachId: breach.breachId }, body: { grantedUntil: isoOfLocal(until) ?? '', reference } });
            onSaved();
          });
        }}
      >
        <Field id="extension-until" label="Report due by (your local time)" problem={problems.grantedUntil}>
          {(control) => <input {...control} type="datetime-local" value={until} onInput={(event) => setUntil(event.currentTarget.value)} />}
        </Field>
        <Field id="extension-reference" label="Board's reference" problem={problems.reference}>
          {(control) => <input {...control} value={reference} onInput={(event) => setReference(event.currentTarget.value)} />}
        </Field>
        <button type="submit" disabled={busy}>
          Record extension
        </button>
      </form>
      <ErrorText error={error} />
    </section>
  );
};

export const Filings = ({ breach, onChanged }: { breach: Breach; onChanged: (said: string) => void }) => {
  const [closing, setClosing] = useState(false);
  const open = breach.status === 'OPEN';
  return (
    <>
      <Filing breach={breach} stage="INTIMATION" onFiled={() => onChanged('The Board intimation is filed.')} />
      <Filing breach={breach} stage="DETAILED_REPORT" onFiled={() => onChanged('The detailed report is filed.')} />
      {canWrite.value && open && !breach.clocks.detailedReport.filedAt ? <Extension breach={breach} onSaved={() => onChanged('The extension is recorded.')} /> : null}
      {canWrite.value && open ? (
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setClosing(true)}>
            Close breach
          </button>
        </div>
      ) : null}
      {closing ? (
        <ConfirmDialog
          title="Close this breach?"
          confirm="Close breach"
          act={() => api.call('closeBreach', { params: { breachId: breach.breachId }, body: {} })}
          onClose={() => setClosing(false)}
          onDone={() => {
            setClosing(false);
            onChanged('The breach is closed.');
          }}
        >
          <p>A closed breach no longer changes. It can be closed once its detailed report is filed.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
};
