import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname } from 'node:path';

/** Printing tables and the machine the numbers were measured on. */
export type Cell = string | number | undefined;

const format = (cell: Cell): string => {
  if (cell === undefined) return '–';
  if (typeof cell === 'string') return cell;
  if (!Number.isFinite(cell)) return '–';
  // Means of whole counts come out as 0.9999999; they are whole counts.
  if (Math.abs(cell - Math.round(cell)) < 1e-9) return Math.round(cell).toLocaleString('en-US');
  const digits = Math.abs(cell) >= 100 ? 0 : Math.abs(cell) >= 10 ? 1 : Math.abs(cell) >= 1 ? 2 : 3;
  return cell.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
};

export const printTable = (title: string, headers: readonly string[], rows: readonly (readonly Cell[])[], notes: readonly string[] = []): void => {
  const text = rows.map((row) => row.map(format));
  const widths = headers.map((header, column) => Math.max(header.length, ...text.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === 0 || !/^[-–\d.,$×%]+/.test(cell) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ').trimEnd();
  console.log(`\n${title}`);
  console.log(line(headers));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of text) console.log(line(row));
  for (const note of notes) console.log(`  ${note}`);
};

const javaVersion = (): string | undefined => {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  return probe.status === 0 ? probe.stderr.split('\n')[0]?.trim() : undefined;
};

export const machineInfo = () => ({
  cpuModel: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
  node: process.version,
  java: javaVersion(),
  platform: `${process.platform} ${process.arch}`,
  date: new Date().toISOString(),
  /** 1-minute load average: anything else running on the machine shows here, and in every figure. */
  loadAverage: Math.round(loadavg()[0]! * 100) / 100,
});

export const writeJson = (path: string, value: unknown): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
};
