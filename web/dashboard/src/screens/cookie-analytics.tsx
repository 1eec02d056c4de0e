import { useState } from 'preact/hooks';
import { api } from '../session';
import type { DataOf } from '../api';
import { ErrorText, Loading, formatNumber, useData } from '../ui';

type Day = DataOf<'getCmpAnalytics'>['daily'][number];

const percent = (fraction: number) => `${(fraction * 100).toLocaleString('en-IN', { maximumFractionDigits: 2 })}%`;
const kinds = ['accept', 'partial', 'reject'] as const;

/** Decisions per day as stacked bars (accept, partial, reject), with the numbers in a table for assistive technology. */
const DailyDecisions = ({ days }: { days: Day[] }) => {
  const width = 600;
  const height = 140;
  const most = Math.max(1, ...days.map((day) => day.decisions));
  const slot = width / Math.max(1, days.length);
  return (
    <figure class="chart">
      <figcaption id="cookie-daily-caption">Cookie decisions per day (UTC): accept, partial and reject</figcaption>
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-labelledby="cookie-daily-caption" focusable="false">
        <line x1="0" y1={height} x2={width} y2={height} class="axis" />
        {days.map((day, index) => {
          let top = height;
          return kinds.map((kind) => {
            const size = (day[kind] / most) * (height - 10);
            top -= size;
            return size > 0 ? <rect key={`${day.date}-${kind}`} x={index * slot + 1} y={top} width={Math.max(1, slot - 2)} height={size} class={`bar ${kind}`} /> : null;
          });
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
      <p class="legend" aria-hidden="true">
        {kinds.map((kind) => (
          <span key={kind} class={`key ${kind}`}>
            {kind}
          </span>
        ))}
      </p>
      <details>
        <summary>The daily numbers as a table</summary>
        <table class="cookie-daily">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Decisions</th>
              <th scope="col">Accept</th>
              <th scope="col">Partial</th>
              <th scope="col">Reject</th>
              <th scope="col">Withdrawals</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <td>{day.date}</td>
                <td>{day.decisions}</td>
                <td>{day.accept}</td>
                <td>{day.partial}</td>
                <td>{day.reject}</td>
                <td>{day.withdrawals}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
};

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
