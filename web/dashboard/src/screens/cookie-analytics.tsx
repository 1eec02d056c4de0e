import { useState } from 'preact/hooks';
import { api } from '../session';
import type { DataOf } from '../api';
import { ErrorText, Loading, formatNumber, useData } from '../ui';
import { DailyBars } from './chart';

type Day = DataOf<'getCmpAnalytics'>['daily'][number];

const percent = (fraction: number) => `${(fraction * 100).toLocaleString('en-IN', { maximumFractionDigits: 2 })}%`;
const kinds = ['accept', 'partial', 'reject'] as const;

/** The stacked parts of a day's bar, bottom up. */
const parts = kinds.map((kind) => ({ key: kind, class: `bar ${kind}`, value: (day: Day) => day[kind] }));

/** The table's numbers, after the day. */
const columns = [
  ['Decisions', (day: Day) => day.decisions],
  ['Accept', (day: Day) => day.accept],
  ['Partial', (day: Day) => day.partial],
  ['Reject', (day: Day) => day.reject],
  ['Withdrawals', (day: Day) => day.withdrawals],
] as const;

/** Decisions per day as stacked bars (accept, partial, reject), with the numbers in a table for assistive technology. */
const DailyDecisions = ({ days }: { days: Day[] }) => (
  <DailyBars
    id="cookie-daily-caption"
    caption="Cookie decisions per day (UTC): accept, partial and reject"
    days={days}
    height={140}
    gap={1}
    total={(day) => day.decisions}
    series={parts}
    skipEmpty
    summary="The daily numbers as a table"
    tableClass="cookie-daily"
    columns={columns}
  >
    <p class="legend" aria-hidden="true">
      {kinds.map((kind) => (
        <span key={kind} class={`key ${kind}`}>
          {kind}
        </span>
      ))}
    </p>
  </DailyBars>
);

export const CookieAnalytics = () => {
  const [range, setRange] = useState({ from: '', to: '' });
  const [typed, setTyped] = useState(range);
  const analytics = useData(() => api.call('getCmpAnalytics', { query: { from: range.from || undefined, to: range.to || undefined } }), [range.from, range.to]);
  const data = analytics.data;
  return (
    <section aria-labelledby="analytics-heading">
      <h2 id="analytics-heading">Cookie analytics</h2>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          // The same range again reads the counters again (new decisions arrive all the time).
          if (typed.from === range.from && typed.to === range.to) analytics.reload();
          else setRange(typed);
        }}
      >
        <div class="field">
          <label for="analytics-from">From (UTC day)</label>
          <input id="analytics-from" type="date" value={typed.from} onInput={(event) => setTyped({ ...typed, from: event.currentTarget.value })} />
        </div>
        <div class="field">
          <label for="analytics-to">To (UTC day)</label>
          <input id="analytics-to" type="date" value={typed.to} onInput={(event) => setTyped({ ...typed, to: event.currentTarget.value })} />
        </div>
        <button type="submit" class="secondary">
          Show analytics
        </button>
      </form>
      <ErrorText error={analytics.error} />
      {analytics.loading && !data ? <Loading what="cookie analytics" /> : null}
      {data ? (
        <>
          <p class="muted">
            {data.from} to {data.to}. Rates are shares of decisions (a first choice or a change); withdrawals are counted apart.
          </p>
          <dl class="figures">
            {(
              [
                ['cookie-decisions', 'Decisions', formatNumber(data.totals.decisions)],
                ['cookie-accept', 'Accept rate', percent(data.rates.accept)],
                ['cookie-reject', 'Reject rate', percent(data.rates.reject)],
                ['cookie-partial', 'Partial rate', percent(data.rates.partial)],
                ['cookie-withdrawals', 'Withdrawals', formatNumber(data.totals.withdrawals)],
              ] as const
            ).map(([id, label, value]) => (
              <div class="figure" key={id}>
                <dt>{label}</dt>
                <dd id={id}>{value}</dd>
              </div>
            ))}
          </dl>
          {Object.keys(data.categories).length ? (
            <table class="cookie-categories">
              <caption>Opt-in by category</caption>
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col">Decisions naming it</th>
                  <th scope="col">Opted in</th>
                  <th scope="col">Opt-in rate</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(data.categories).map(([category, counts]) => (
                  <tr key={category}>
                    <th scope="row">{category}</th>
                    <td>{counts.seen}</td>
                    <td>{counts.optedIn}</td>
                    <td>{percent(counts.optInRate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <DailyDecisions days={data.daily} />
        </>
      ) : null}
    </section>
  );
};
