import { api } from '../session';
import { ApiError, type DataOf } from '../api';
import { ErrorText, Heading, Link, Loading, formatNumber, useData } from '../ui';

interface OverviewData {
  consents: DataOf<'consentAnalytics'>;
  tasks: DataOf<'listComplianceTasks'>;
  /** null: cookie consent is not configured (or not on the plan). */
  cookies: DataOf<'getCmpAnalytics'> | null;
}

const load = async (): Promise<OverviewData> => {
  const [consents, tasks, cookies] = await Promise.all([
    api.call('consentAnalytics'),
    api.call('listComplianceTasks', {}),
    api.call('getCmpAnalytics', {}).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'CMP_NOT_CONFIGURED') return null;
      throw error;
    }),
  ]);
  return { consents, tasks, cookies };
};

const percent = (value: number) => `${value.toLocaleString('en-IN', { maximumFractionDigits: 2 })}%`;

/** A bar chart of consents per day as SVG, with the same numbers in a table for assistive technology. */
const DailyChart = ({ days }: { days: { date: string; consents: number }[] }) => {
  const width = 600;
  const height = 160;
  const most = Math.max(1, ...days.map((day) => day.consents));
  const slot = width / days.length;
  return (
    <figure class="chart">
      <figcaption id="daily-caption">Consents recorded per day, last 30 days (UTC)</figcaption>
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-labelledby="daily-caption" focusable="false">
        <line x1="0" y1={height} x2={width} y2={height} class="axis" />
        {days.map((day, index) => {
          const barHeight = (day.consents / most) * (height - 10);
          return <rect key={day.date} x={index * slot + 2} y={height - barHeight} width={Math.max(1, slot - 4)} height={barHeight} class="bar" />;
        })}
        <text x="0" y={height + 16} class="tick">
          {days[0]?.date}
        </text>
        <text x={width} y={height + 16} class="tick" text-anchor="end">
          {days[days.length - 1]?.date}
        </text>
        <text x={width} y="12" class="tick" text-anchor="end">
          most: {most}
        </text>
      </svg>
      <details>
        <summary>The numbers as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Consents</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <td>{day.date}</td>
                <td>{day.consents}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
};

const Figure = ({ label, value, id }: { label: string; value: string; id: string }) => (
  <div class="figure">
    <dt id={`${id}-label`}>{label}</dt>
    <dd id={id}>{value}</dd>
  </div>
);

export default function Overview() {
  const { data, error, loading } = useData(load);
  const open = data?.tasks.filter((task) => task.status === 'OPEN').length ?? 0;
  const overdue = data?.tasks.filter((task) => task.status === 'OVERDUE' || (task.status === 'OPEN' && Date.parse(task.dueAt) < Date.now())).length ?? 0;
  return (
    <>
      <Heading title="Overview">Overview</Heading>
      {loading && !data ? <Loading what="the figures" /> : null}
      <ErrorText error={error} />
      {data ? (
        <>
          <dl class="figures">
            <Figure id="total-consents" label="Total consents" value={formatNumber(data.consents.totalConsents)} />
            <Figure id="withdrawal-rate" label="Withdrawal rate" value={percent(data.consents.withdrawalRate)} />
            <Figure id="consents-30-days" label="Consents in the last 30 days" value={formatNumber(data.consents.consentsLast30Days)} />
            <Figure id="open-tasks" label="Open compliance tasks" value={formatNumber(open)} />
            <Figure id="overdue-tasks" label="Overdue compliance tasks" value={formatNumber(overdue)} />
            <Figure id="cookie-accept-rate" label="Cookie accept rate" value={data.cookies ? percent(data.cookies.rates.accept * 100) : 'Not configured'} />
          </dl>
          {data.consents.countsAsOf ? <p class="muted">Counts as of {new Date(data.consents.countsAsOf).toISOString().replace('T', ' ').slice(0, 19)} UTC; a new record is counted seconds after it is written.</p> : null}
          <DailyChart days={data.consents.daily} />
          {overdue > 0 ? (
            <p class="warning">
              {overdue === 1 ? 'One compliance task is' : `${overdue} compliance tasks are`} overdue. <Link to="/withdrawals">Review withdrawals</Link>
            </p>
          ) : null}
        </>
      ) : null}
    </>
  );
}
