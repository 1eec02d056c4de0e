import type { ComponentChildren } from 'preact';

/** One part of a day's bar (stacked upwards in the order given): its value and its bar's class (its colour). */
export interface Series<Day> {
  key: string;
  class: string;
  value: (day: Day) => number;
}

/**
 * Bars per day as SVG, scaled to the largest `total`, labelled by the caption, then the children (a
 * legend) and the same numbers as a table (`columns`, after the day) for assistive technology.
 * `skipEmpty` leaves out the bars of size 0.
 */
export const DailyBars = <Day extends { date: string }>({
  id,
  caption,
  days,
  height,
  gap,
  total,
  series,
  skipEmpty = false,
  summary,
  tableClass,
  columns,
  children,
}: {
  id: string;
  caption: string;
  days: Day[];
  height: number;
  /** Space left on each side of a bar. */
  gap: number;
  total: (day: Day) => number;
  series: readonly Series<Day>[];
  skipEmpty?: boolean;
  /** The table's disclosure. */
  summary: string;
  tableClass?: string;
  columns: readonly (readonly [label: string, value: (day: Day) => number])[];
  children?: ComponentChildren;
}) => {
  const width = 600;
  const most = Math.max(1, ...days.map(total));
  const slot = width / Math.max(1, days.length);
  return (
    <figure class="chart">
      <figcaption id={id}>{caption}</figcaption>
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-labelledby={id} focusable="false">
        <line x1="0" y1={height} x2={width} y2={height} class="axis" />
        {days.map((day, index) => {
          let top = height;
          return series.map((part) => {
            const size = (part.value(day) / most) * (height - 10);
            top -= size;
            return skipEmpty && !(size > 0) ? null : (
              <rect key={`${day.date}-${part.key}`} x={index * slot + gap} y={top} width={Math.max(1, slot - 2 * gap)} height={size} class={part.class} />
            );
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
      {children}
      <details>
        <summary>{summary}</summary>
        <table class={tableClass}>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {columns.map(([label]) => (
                <th key={label} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <td>{day.date}</td>
                {columns.map(([label, value]) => (
                  <td key={label}>{value(day)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
};
