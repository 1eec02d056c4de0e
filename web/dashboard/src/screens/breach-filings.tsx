import { useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import { ErrorText, Loading, fieldErrors, formatDateTime, useAction, useData } from '../ui';
import { DocumentDownloads, DocumentPreview } from './document';
import { clockText, isoOfLocal, zoneLabel, type Breach } from './breach-parts';
import { ConfirmDialog, Field } from './parts';

type Stage = 'INTIMATION' | 'DETAILED_REPORT';

const stages = {
  INTIMATION: { title: 'Board intimation', rule: 'Rule 7(2)(a): a description of the breach, without delay', file: 'File Board intimation', call: 'fileBoardIntimation', name: 'board-intimation' },
  DETAILED_REPORT: { title: 'Detailed report', rule: 'Rule 7(2)(b): items (i) to (vi), within 72 hours of becoming aware', file: 'File detailed report', call: 'fileBoardReport', name: 'detailed-report' },
} as const;

/**
 * Filing is recorded here and frozen for good, and the service sends nothing to the Board: the
 * dialog says both before anything happens, and how to send it (the PDF, below).
 */
const FileDialog = ({ breach, stage, missing, onClose, onFiled }: { breach: Breach; stage: Stage; missing: readonly string[]; onClose: () => void; onFiled: () => void }) => {
  const info = stages[stage];
  return (
    <ConfirmDialog title={`Record the ${info.title.toLowerCase()} as filed?`} confirm="Record as filed" act={() => api.call(info.call, { params: { breachId: breach.breachId }, body: {} })} onClose={onClose} onDone={onFiled}>
      {missing.length > 0 ? (
        <>
          <p>It cannot be filed yet. It still lacks:</p>
          <ul>
            {missing.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </>
      ) : null}
      <p>This records the {info.title.toLowerCase()} as filed now, and freezes the document in your evidence log as it stands: it cannot be changed or filed again afterwards.</p>
      <p>
        <strong>The service does not send it to the Data Protection Board.</strong> Send it yourself, the way the Board accepts filings: save it as a PDF under “The document”, and keep the
        Board’s acknowledgement.
      </p>
      {stage === 'DETAILED_REPORT' && breach.intimation.progress.awaitingTenant > 0 ? (
        <p class="notice">{breach.intimation.progress.awaitingTenant} affected principal(s) without an email have not been told; the report says so.</p>
      ) : null}
    </ConfirmDialog>
  );
};

/** One filing with the Board: filed (frozen), or a preview of what would be filed now and what it still lacks, with the document itself. */
const Filing = ({ breach, stage, onFiled }: { breach: Breach; stage: Stage; onFiled: () => void }) => {
  const filing = useData(() => api.call('getBoardReport', { params: { breachId: breach.breachId }, query: { stage } }), [breach.updatedAt, breach.intimation.status]);
  const [confirming, setConfirming] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const info = stages[stage];
  const headingId = `filing-${stage}`;
  const clock = stage === 'INTIMATION' ? breach.clocks.boardIntimation : breach.clocks.detailedReport;
  const missing = Object.values(filing.data?.missing ?? {});
  const fetchAs = (format: 'html' | 'pdf') =>
    format === 'pdf' ? api.file('printBoardReport', { params: { breachId: breach.breachId }, query: { stage } }) : api.file('getBoardReport', { params: { breachId: breach.breachId }, query: { stage, format } });
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
        <>
          <h3 id={`${headingId}-document`}>{filing.data.filed ? 'The document, as filed' : 'The document, as it would be filed now'}</h3>
          <DocumentDownloads fetchAs={fetchAs} name={`${info.name}-${breach.breachId}`} id={`${headingId}-downloads`} />
          <details onToggle={(event) => setPreviewing((event.currentTarget as HTMLDetailsElement).open)}>
            <summary>Read it here</summary>
            {previewing ? <DocumentPreview key={filing.data.filedAt ?? breach.updatedAt} load={() => fetchAs('html')} label={`${info.title}, as the document reads`} /> : null}
          </details>
        </>
      ) : null}
      {canWrite.value && breach.status === 'OPEN' && filing.data && !filing.data.filed ? (
        <div class="actions">
          <button type="button" aria-describedby={headingId} onClick={() => setConfirming(true)}>
            {info.file}
          </button>
        </div>
      ) : null}
      {confirming ? (
        <FileDialog
          breach={breach}
          stage={stage}
          missing={missing}
          onClose={() => setConfirming(false)}
          onFiled={() => {
            setConfirming(false);
            onFiled();
          }}
        />
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
        <Field id="extension-until" label={`Report due by (${zoneLabel()})`} problem={problems.grantedUntil}>
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
      <Filing breach={breach} stage="INTIMATION" onFiled={() => onChanged('The Board intimation is recorded as filed. Send the document to the Board: save it as a PDF under “The document”.')} />
      <Filing breach={breach} stage="DETAILED_REPORT" onFiled={() => onChanged('The detailed report is recorded as filed. Send the document to the Board: save it as a PDF under “The document”.')} />
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
