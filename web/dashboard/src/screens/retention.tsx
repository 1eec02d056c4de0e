import { useEffect, useState } from 'preact/hooks';
import type { DataOf } from '../api';
import { api, canWrite } from '../session';
import { Dialog, DialogActions, ErrorText, Heading, Loading, fieldErrors, formatDateTime, useAction, useData } from '../ui';
import { FieldMessage, messageAt, OtherMessages } from './notice-fields';
import { useSaid } from './parts';
import { bodyOf, draftOf, RetentionFields, retentionFieldNames, retentionSaid } from './retention-fields';
import { Erasures, Upcoming } from './retention-lists';

type Settings = DataOf<'getRetentionSettings'>;
type Purpose = DataOf<'listPurposes'>[number];

/** The Third Schedule class and the notice principals get before an erasure (GET/PUT /retention/settings). */
const SettingsForm = ({ onSaved }: { onSaved: () => void }) => {
  const loaded = useData(() => Promise.all([api.call('getRetentionSettings'), api.call('getThirdSchedule')]));
  const [draft, setDraft] = useState<{ thirdScheduleClass: Settings['thirdScheduleClass']; noticeHours: string }>();
  const { busy, error, run } = useAction();
  const { say, line } = useSaid();
  const fields = fieldErrors(error);
  useEffect(() => {
    if (loaded.data) setDraft({ thirdScheduleClass: loaded.data[0].thirdScheduleClass, noticeHours: String(loaded.data[0].noticeHours) });
  }, [loaded.data]);
  if (!draft || !loaded.data) return <>{loaded.loading ? <Loading what="the retention settings" /> : null}<ErrorText error={loaded.error} /></>;
  const [settings, schedule] = loaded.data;
  const hoursMessage = messageAt(fields, 'noticeHours');
  const writer = canWrite.value;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void run(async () => {
          const saved = await api.call('saveRetentionSettings', { body: { thirdScheduleClass: draft.thirdScheduleClass, noticeHours: Number(draft.noticeHours) } });
          loaded.reload();
          onSaved();
          say(`Settings saved: ${saved.noticeHours > 0 ? `principals are told ${saved.noticeHours} hours before an erasure` : 'no notice before an erasure'}.`);
        });
      }}
    >
      <h2>Settings</h2>
      <fieldset disabled={!writer}>
        <legend>Third Schedule (rule 8)</legend>
        <div class="field">
          <label for="third-schedule-class">Class of the organisation</label>
          <select
            id="third-schedule-class"
            value={draft.thirdScheduleClass ?? ''}
            onChange={(event) => setDraft({ ...draft, thirdScheduleClass: (event.currentTarget.value || null) as Settings['thirdScheduleClass'] })}
          >
            <option value="">None: the organisation's own periods only</option>
            {schedule.classes.map((entry) => (
              <option key={entry.id} value={entry.id}>{`${entry.serial}. ${entry.class} (${entry.registeredUsersAtLeast.toLocaleString('en-IN')} or more registered users)`}</option>
            ))}
          </select>
          <span class="hint">A Third Schedule organisation erases three years after a principal's last activity (except account access and virtual tokens) and tells her at least {schedule.noticeHours} hours before.</span>
        </div>
        <div class={`field${hoursMessage ? ' invalid' : ''}`}>
          <label for="notice-hours">Hours of notice before an erasure</label>
          <input
            id="notice-hours"
            type="number"
            min={0}
            max={720}
            value={draft.noticeHours}
            aria-invalid={hoursMessage ? true : undefined}
            aria-describedby={`notice-hours-hint${hoursMessage ? ' notice-hours-error' : ''}`}
            onInput={(event) => setDraft({ ...draft, noticeHours: event.currentTarget.value })}
          />
          <span class="hint" id="notice-hours-hint">
            0 sends none. With notice, a principal with an email on her records is mailed in her language; the tenant's systems get retention.notice_due.
          </span>
          <FieldMessage id="notice-hours-error" message={hoursMessage} />
        </div>
      </fieldset>
      <OtherMessages fields={fields} shown={['noticeHours']} />
      <ErrorText error={Object.keys(fields).length > 0 ? undefined : error} />
      {writer ? <button type="submit" disabled={busy}>Save settings</button> : <p class="muted">Your role can view these settings; a DPO changes them.</p>}
      {line}
      <p class="muted">Last changed: {settings.updatedAt ? formatDateTime(settings.updatedAt) : 'never (the defaults)'}</p>
    </form>
  );
};

const RetentionForm = ({ purpose, onSaved, onCancel }: { purpose: Purpose; onSaved: () => void; onCancel: () => void }) => {
  const [draft, setDraft] = useState(draftOf(purpose));
  const { busy, error, run } = useAction({ staysBusy: true });
  const fields = fieldErrors(error);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void run(async () => {
          await api.call('updatePurpose', { params: { id: purpose.id }, body: bodyOf(draft) });
          onSaved();
        });
      }}
    >
      <RetentionFields draft={draft} onChange={setDraft} fields={fields} idPrefix="edit" />
      <ErrorText error={error} />
      <OtherMessages fields={fields} shown={retentionFieldNames} />
      <DialogActions submit="Save retention" busy={busy} onCancel={onCancel} />
    </form>
  );
};

/** Each purpose's retention, as the public notice states it, editable in place. */
const Purposes = ({ loaded }: { loaded: ReturnType<typeof useData<Purpose[]>> }) => {
  const [editing, setEditing] = useState<Purpose>();
  const { say, line } = useSaid();
  return (
    <section aria-labelledby="purposes-heading">
      <h2 id="purposes-heading">Purposes</h2>
      <p class="hint">A notice states the retention its purposes had when it was published: publish it again to show a change.</p>
      {loaded.loading ? <Loading what="the purposes" /> : null}
      <ErrorText error={loaded.error} />
      {line}
      {loaded.data?.length === 0 ? <p class="muted">No purposes yet: add them on a notice.</p> : null}
      {loaded.data && loaded.data.length > 0 ? (
        <table>
          <caption>Each purpose's retention, in the words the notice shows in English</caption>
          <thead>
            <tr>
              <th scope="col">Purpose</th>
              <th scope="col">Retention</th>
              <th scope="col">Third Schedule</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.map((purpose) => (
              <tr key={purpose.id}>
                <td>{purpose.name}</td>
                <td>{retentionSaid(purpose)}</td>
                <td>{purpose.thirdScheduleException ? 'Excepted' : '—'}</td>
                <td>
                  {canWrite.value ? (
                    <button type="button" class="secondary" onClick={() => setEditing(purpose)}>
                      Edit retention<span class="visually-hidden">{` of ${purpose.name}`}</span>
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {editing ? (
        <Dialog title={`Retention of ${editing.name}`} onClose={() => setEditing(undefined)}>
          <RetentionForm
            purpose={editing}
            onCancel={() => setEditing(undefined)}
            onSaved={() => {
              setEditing(undefined);
              loaded.reload();
              say(`Retention of ${editing.name} saved. It applies to a principal at her next activity or decision.`);
            }}
          />
        </Dialog>
      ) : null}
    </section>
  );
};

/**
 * Retention and erasure (s.8(7), rule 8, the Third Schedule): the settings, each purpose's
 * retention, the erasures ahead and the erasure tasks. docs/retention.md.
 */
export default function Retention() {
  const purposes = useData(() => api.call('listPurposes'));
  const names = new Map((purposes.data ?? []).map((purpose) => [purpose.id, purpose.name]));
  return (
    <>
      <Heading title="Retention">Retention and erasure</Heading>
      <p class="hint">Personal data is erased once its purpose's retention ends; consent for it lapses, and the evidence that it was given and withdrawn is kept.</p>
      <SettingsForm onSaved={purposes.reload} />
      <Purposes loaded={purposes} />
      <Upcoming names={names} />
      <Erasures names={names} />
    </>
  );
}
