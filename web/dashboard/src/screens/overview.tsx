import { api } from '../session';
import { ApiError, type DataOf } from '../api';
import { ErrorText, Heading, Link, Loading, formatNumber, useData } from '../ui';
import { DailyBars } from './chart';

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

const consents = [{ key: 'consents', class: 'bar', value: (day: { consents: number }) => day.consents }] as const;

/** A bar chart of consents per day as SVG, with the same numbers in a table for assistive technology. */
const DailyChart = ({ days }: { days: { date: string; consents: number }[] }) => (
  <DailyBars
    id="daily-caption"
    caption="Consents recorded per day, last 30 days (UTC)"
    days={days}
    height={160}
    gap={2}
    total={(day) => day.consents}
    series={consents}
    summary="The numbers as a table"
    columns={[['Consents', (day) => day.consents]]}
  />
);

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
