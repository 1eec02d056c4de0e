import { useEffect, useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import { ErrorText, Heading, Link, Loading, formatDateTime, formatNumber, useData } from '../ui';
import { Filings } from './breach-filings';
import { BreachForm } from './breach-form';
import { Notify } from './breach-notify';
import { Actor } from './actor';
import { ClockBadge, clockText, fieldLabel, reportFields, type Breach } from './breach-parts';
import { useSaid } from './parts';

/** How often the screen reads the breach again while its principals are being intimated. */
const pollMs = 1500;

const scopeText = (breach: Breach) =>
  ({
    ALL: 'Everyone with a consent record',
    NOTICES: `Those who consented to ${breach.affected.noticeIds.length} notice(s)`,
    PURPOSES: `Those who granted ${breach.affected.purposeIds.length} purpose(s)`,
    PRINCIPALS: `${formatNumber(breach.affected.listedPrincipals)} listed principal(s)`,
  })[breach.affected.scope];

const actions: Record<string, string> = {
  created: 'Recorded the breach',
  updated: 'Changed',
  'principals-listed': 'Listed principals',
  'principal-intimation': 'Started the intimation of the principals',
  'intimation-completed': 'Intimation run finished',
  'board-intimation': 'Filed the Board intimation',
  'board-report': 'Filed the detailed report',
  extension: "Recorded the Board's extension",
  closed: 'Closed the breach',
};

const Timeline = ({ breach }: { breach: Breach }) => (
  <section aria-labelledby="timeline-heading">
    <h2 id="timeline-heading">Timeline</h2>
    <p class="muted">Every change, kept in your evidence log: it verifies like consent evidence.</p>
    <ol>
      {breach.timeline.map((entry) => (
        <li key={entry.documentId}>
          <strong>{formatDateTime(entry.at)}</strong> {actions[entry.action] ?? entry.action}
          {entry.action === 'updated' ? `: ${Object.keys(entry.details).map(fieldLabel).join(', ')}` : ''} by <Actor actor={entry.by} />
        </li>
      ))}
    </ol>
  </section>
);

const Details = ({ breach }: { breach: Breach }) => (
  <dl class="pairs">
    <dt>Became aware</dt>
    <dd>{formatDateTime(breach.awareAt)}</dd>
    <dt>Occurred</dt>
    <dd>{breach.occurredAt ? formatDateTime(breach.occurredAt) : 'Not known yet'}</dd>
    <dt>Nature</dt>
    <dd class="wrap-text">{breach.nature}</dd>
    <dt>Extent</dt>
    <dd class="wrap-text">{breach.extent}</dd>
    <dt>Location</dt>
    <dd class="wrap-text">{breach.location}</dd>
    <dt>Likely impact</dt>
    <dd class="wrap-text">{breach.likelyImpact}</dd>
    <dt>Data categories</dt>
    <dd>{breach.dataCategories.join(', ')}</dd>
    <dt>Data map assets</dt>
    <dd>{breach.assets.length === 0 ? 'None named' : breach.assets.map((asset) => (asset.name ? `${asset.name} (${asset.system})` : `${asset.assetId} (deleted from the map)`)).join('; ')}</dd>
    <dt>Affected</dt>
    <dd>
      {scopeText(breach)}; {breach.affectedCount === null ? 'count known once intimated' : `${formatNumber(breach.affectedCount)} principal(s)`}
    </dd>
    {reportFields.map(([name, label]) => [
      <dt key={`${name}-t`}>{label}</dt>,
      <dd key={`${name}-d`} class="wrap-text">
        {breach[name] ?? 'Not written yet'}
      </dd>,
    ])}
  </dl>
);

export default function BreachScreen({ params }: { params: Record<string, string> }) {
  const breachId = params.id!;
  const loaded = useData(() => api.call('getBreach', { params: { breachId } }), [breachId]);
  const [editing, setEditing] = useState(false);
  const { say, line } = useSaid();
  const breach = loaded.data;
  // The intimation's progress, live: read again while a run is in progress.
  useEffect(() => {
    if (breach?.intimation.status !== 'RUNNING') return;
    const timer = setTimeout(loaded.reload, pollMs);
    return () => clearTimeout(timer);
  }, [breach]);
  const changed = (text: string) => {
    say(text);
    loaded.reload();
  };
  return (
    <>
      <p class="crumbs">
        <Link to="/breaches">Breaches</Link>
      </p>
      <Heading title={breach?.title ?? 'Breach'}>{breach?.title ?? 'Breach'}</Heading>
      <ErrorText error={loaded.error} />
      {loaded.loading && !breach ? <Loading what="the breach" /> : null}
      {line}
      {breach ? (
        <>
          <p>
            <span class={`badge ${breach.status === 'OPEN' ? 'partial' : 'active'}`}>{breach.status === 'OPEN' ? 'Open' : `Closed ${formatDateTime(breach.closedAt)}`}</span>
          </p>
          <section aria-labelledby="clocks-heading" class="panel">
            <h2 id="clocks-heading">Clocks</h2>
            <dl class="pairs">
              <dt>Board intimation</dt>
              <dd>
                {clockText(breach.clocks.boardIntimation, 'INTIMATION')}
                <ClockBadge clock={breach.clocks.boardIntimation} />
              </dd>
              <dt>Detailed report</dt>
              <dd>
                {clockText(breach.clocks.detailedReport, 'DETAILED_REPORT')}
                <ClockBadge clock={breach.clocks.detailedReport} />
              </dd>
            </dl>
          </section>
          <section aria-labelledby="details-heading">
            <h2 id="details-heading">What happened</h2>
            <Details breach={breach} />
            {canWrite.value && breach.status === 'OPEN' ? (
              <div class="actions">
                <button type="button" class="secondary" onClick={() => setEditing(true)}>
                  Edit breach
                </button>
              </div>
            ) : null}
          </section>
          {editing ? (
            <BreachForm
              breach={breach}
              onClose={() => setEditing(false)}
              onSaved={() => {
                setEditing(false);
                changed('The breach is saved.');
              }}
            />
          ) : null}
          <Notify breach={breach} onStarted={() => changed('The intimation has started.')} />
          <Filings breach={breach} onChanged={changed} />
          <Timeline breach={breach} />
        </>
      ) : null}
    </>
  );
}
