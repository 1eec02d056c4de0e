import { mapBundleStackTraces } from './stack-traces';

// Every function logs through here, so every deployed bundle maps its stack traces to the sources,
// on demand (./stack-traces.ts); from source this does nothing.
mapBundleStackTraces();

/** Structured JSON logs, one object a line, so CloudWatch Logs Insights can query them. */
type Level = 'info' | 'warn' | 'error';

const write = (level: Level, message: string, fields: Record<string, unknown>): void => {
  if (process.env.CMS_LOG_SILENT === '1') return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
};

export const log = {
  info: (message: string, fields: Record<string, unknown> = {}) => write('info', message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write('warn', message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write('error', message, fields),
};

export const describeError = (error: unknown): Record<string, unknown> =>
  error instanceof Error
    ? { errorName: error.name, errorMessage: error.message, stack: error.stack, cause: error.cause === undefined ? undefined : describeError(error.cause) }
    : { error: String(error) };
