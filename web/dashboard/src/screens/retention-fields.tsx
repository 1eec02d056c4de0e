import { retentionInWords } from '../../../../shared/retention/retention-words';
import { retentionStarts, type RetentionStart } from '../../../../shared/retention/starts';
import type { ThirdScheduleException } from '../../../../shared/retention/third-schedule';
import { noticeBannerWords } from '../../../../shared/words/widget-words';
import { FieldMessage, messageAt, TextField } from './notice-fields';

/**
 * A purpose's retention (s.8(7), rule 8) as the purpose editor and the Retention screen edit it:
 * the period (ISO 8601), where it starts, the law that keeps data longer, and whether the Third
 * Schedule excepts the purpose. `said` shows it as principals read it, in the catalogue's English.
 */

export interface RetentionDraft {
  period: string;
  from: RetentionStart;
  legalHold: string;
  exception: ThirdScheduleException | '';
}

export interface StoredRetention {
  retention?: { period: string; from: RetentionStart; legalHold?: string | undefined } | null | undefined;
  thirdScheduleException?: ThirdScheduleException | null | undefined;
}

const startLabels: Record<RetentionStart, string> = {
  LAST_ACTIVITY: 'Her last activity (a consent, a withdrawal, reported activity)',
  CONSENT: 'Her consent to the purpose',
  WITHDRAWAL: 'Her withdrawal or refusal of the purpose',
};

const exceptionLabels: Record<ThirdScheduleException, string> = {
  USER_ACCOUNT_ACCESS: 'Excepted (a): lets her access her user account',
  VIRTUAL_TOKEN_ACCESS: 'Excepted (b): lets her access a virtual token of money value',
};

export const draftOf = (purpose: StoredRetention | undefined): RetentionDraft => ({
  period: purpose?.retention?.period ?? '',
  from: purpose?.retention?.from ?? 'LAST_ACTIVITY',
  legalHold: purpose?.retention?.legalHold ?? '',
  exception: purpose?.thirdScheduleException ?? '',
});

/** The body fields of POST/PUT /purposes: no period is no retention (null removes one). */
export const bodyOf = (draft: RetentionDraft) => ({
  retention: draft.period.trim() ? { period: draft.period.trim(), from: draft.from, ...(draft.legalHold.trim() ? { legalHold: draft.legalHold.trim() } : {}) } : null,
  thirdScheduleException: draft.exception || null,
});

/** The retention in the words the public notice shows (the catalogue's English), or that none is set. */
export const retentionSaid = (purpose: StoredRetention): string =>
  (purpose.retention && retentionInWords(purpose.retention, (key) => noticeBannerWords[key])) ?? 'No retention set: no erasure is scheduled';

export const retentionFieldNames = ['retention', 'thirdScheduleException'];

export const RetentionFields = ({ draft, onChange, fields, idPrefix }: { draft: RetentionDraft; onChange: (draft: RetentionDraft) => void; fields: Record<string, string>; idPrefix: string }) => {
  const retentionMessage = fields.retention;
  const exceptionMessage = messageAt(fields, 'thirdScheduleException');
  return (
    <fieldset aria-describedby={retentionMessage ? `${idPrefix}-retention-error` : undefined}>
      <legend>Retention</legend>
      <FieldMessage id={`${idPrefix}-retention-error`} message={retentionMessage} />
      <TextField
        id={`${idPrefix}-period`}
        name="retention.period"
        label="Kept for (ISO 8601 duration)"
        hint="For example P3Y (three years), P6M, P90D. Empty: the data is not scheduled for erasure."
        value={draft.period}
        onInput={(period) => onChange({ ...draft, period })}
        fields={fields}
      />
      <div class="field">
        <label for={`${idPrefix}-from`}>Counted from</label>
        <select id={`${idPrefix}-from`} value={draft.from} onChange={(event) => onChange({ ...draft, from: event.currentTarget.value as RetentionStart })}>
          {retentionStarts.map((start) => (
            <option key={start} value={start}>
              {startLabels[start]}
            </option>
          ))}
        </select>
      </div>
      <TextField
        id={`${idPrefix}-hold`}
        name="retention.legalHold"
        label="Legal hold (optional)"
        hint="The law that requires the data to be kept longer, in words; shown on the notice."
        value={draft.legalHold}
        onInput={(legalHold) => onChange({ ...draft, legalHold })}
        fields={fields}
      />
      <div class="field">
        <label for={`${idPrefix}-exception`}>Third Schedule</label>
        <select
          id={`${idPrefix}-exception`}
          value={draft.exception}
          aria-invalid={exceptionMessage ? true : undefined}
          aria-describedby={exceptionMessage ? `${idPrefix}-exception-error` : undefined}
          onChange={(event) => onChange({ ...draft, exception: event.currentTarget.value as RetentionDraft['exception'] })}
        >
          <option value="">Not excepted: bounded by three years for a Third Schedule organisation</option>
          {(Object.keys(exceptionLabels) as ThirdScheduleException[]).map((id) => (
            <option key={id} value={id}>
              {exceptionLabels[id]}
            </option>
          ))}
        </select>
        <FieldMessage id={`${idPrefix}-exception-error`} message={exceptionMessage} />
      </div>
    </fieldset>
  );
};
