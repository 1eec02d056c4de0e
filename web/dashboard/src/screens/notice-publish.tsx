import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../session';
import type { DataOf } from '../api';
import { Dialog, DialogActions, ErrorText, Loading, fieldErrors, useAction, useData } from '../ui';
import { DiffTable, MaterialWarning, publishPreview } from './notice-diff';
import { OtherMessages, TextField } from './notice-fields';

export type Published = DataOf<'publishNotice'>;

/**
 * "Publish": what changes against the version people see now, a warning when the change is
 * material (everyone is asked again), an optional change note, then the publish itself.
 */
export const PublishDialog = ({ notice, onClose, onPublished }: { notice: { id: string }; onClose: () => void; onPublished: (result: Published) => void }) => {
  const preview = useData(() => publishPreview(notice.id), [notice.id]);
  const [changeNote, setChangeNote] = useState('');
  const { busy, error, run } = useAction({ staysBusy: true });
  const fields = fieldErrors(error);
  const diff = preview.data;
  return (
    <Dialog title="Publish this notice?" onClose={onClose}>
      {preview.loading ? <Loading what="the changes" /> : null}
      <ErrorText error={preview.error} />
      {!preview.loading && !preview.error && !diff ? <p>This is the first version of the notice: there is no earlier version to compare with.</p> : null}
      {diff ? (
        <>
          {diff.hasMaterialChange ? <MaterialWarning /> : <p>No material change: people who consented are not asked again.</p>}
          <DiffTable
            changes={diff.changes}
            purposeNames={diff.purposeNames}
            caption={`Changes against version ${diff.previous.versionNumber} (${diff.previous.title}), the version people see now`}
          />
        </>
      ) : null}
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          // A notice the API finds incomplete names each missing item: listed here by field.
          await run(async () => onPublished(await api.call('publishNotice', { params: { id: notice.id }, body: changeNote ? { changeNote } : {} })));
        }}
      >
        <TextField id="change-note" name="changeNote" label="Change note (optional)" value={changeNote} onInput={setChangeNote} fields={fields} multiline />
        <ErrorText error={error} />
        <OtherMessages fields={fields} shown={['changeNote']} />
        <DialogActions submit="Publish now" busy={busy || preview.loading} onCancel={onClose} />
      </form>
    </Dialog>
  );
};

/** What the publish did, said once it is done. */
export const PublishedNote = ({ result }: { result: Published }) => {
  // The dialog and its opener are gone with the draft: the focus moves to what happened.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div class="result ok" role="status" tabIndex={-1} ref={ref}>
      <p>
        <strong>Published as version {result.versionNumber}.</strong>{' '}
        {result.materialChangeDetected
          ? `Material change against version ${result.fromVersionNumber}: everyone who consented will be asked again.`
          : result.fromVersionNumber
            ? `No material change against version ${result.fromVersionNumber}.`
            : 'The widget now shows this notice.'}
      </p>
    </div>
  );
};
