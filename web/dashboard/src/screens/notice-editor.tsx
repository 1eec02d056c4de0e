import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../session';
import type { DataOf } from '../api';
import { ErrorText, Loading, fieldErrors, useData } from '../ui';
import { OtherMessages, TextField } from './notice-fields';
import { Purposes, type Selection } from './notice-purposes';

type Detail = DataOf<'getNotice'>;
type Saved = DataOf<'createNotice'>;

const textFields = [
  { name: 'title', label: 'Title' },
  { name: 'introText', label: 'Introduction', multiline: true },
  { name: 'contactEmail', label: 'Contact email', type: 'email' },
  { name: 'contactUrl', label: 'Contact page (optional)', type: 'url' },
  { name: 'rightsText', label: "The principal's rights", multiline: true },
  { name: 'complaintText', label: 'How to complain', multiline: true },
  { name: 'withdrawalUrl', label: 'Withdrawal page (optional)', type: 'url', hint: 'Leave empty to use the service’s own withdrawal page.' },
] as const;
type TextName = (typeof textFields)[number]['name'];
const optional: readonly TextName[] = ['contactUrl', 'withdrawalUrl'];

const textOf = (notice?: Detail): Record<TextName, string> =>
  Object.fromEntries(textFields.map(({ name }) => [name, notice?.[name] ?? ''])) as Record<TextName, string>;

const selectionOf = (notice?: Detail): Selection =>
  [...(notice?.purposeConfig ?? [])].sort((a, b) => a.displayOrder - b.displayOrder).map(({ purposeId, isRequired }) => ({ purposeId, isRequired }));

interface EditorProps {
  notice?: Detail;
  /** After a save: the notice as the API returned it. */
  onSaved: (saved: Saved) => void;
  /** Rendered after the Save button (Publish): given a save that runs first when there are unsaved changes. */
  actions?: (saveFirst: () => Promise<boolean>) => ComponentChildren;
}

/**
 * The notice's text and purposes. Sends what was typed as it is: the API decides what is valid,
 * and each of its field messages appears beside that field while the form keeps every value.
 */
export const NoticeEditor = ({ notice, onSaved, actions }: EditorProps) => {
  const purposes = useData(() => api.call('listPurposes'));
  const [text, setText] = useState(() => textOf(notice));
  const [selection, setSelection] = useState(() => selectionOf(notice));
  const [dirty, setDirty] = useState(false);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState('');
  const fields = fieldErrors(error);

  const change = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setDirty(true);
    setSaid('');
  };

  const save = async (): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    const purposeConfig = selection.map((item, displayOrder) => ({ ...item, displayOrder }));
    const body = { ...text, purposeIds: selection.map((item) => item.purposeId), purposeConfig };
    // An empty optional field: left out of a new notice, cleared (null) on a draft.
    for (const name of optional) if (!body[name].trim()) delete (body as Partial<typeof body>)[name];
    try {
      const saved = notice
        ? await api.call('updateNotice', {
            params: { id: notice.id },
            body: { ...body, ...Object.fromEntries(optional.filter((name) => !(name in body)).map((name) => [name, null])) },
          })
        : await api.call('createNotice', { body });
      setDirty(false);
      setSaid('Saved.');
      onSaved(saved);
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="editor">
      <form
        id="notice-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {textFields.map((field) => (
          <TextField
            key={field.name}
            id={`notice-${field.name}`}
            name={field.name}
            label={field.label}
            type={'type' in field ? field.type : undefined}
            multiline={'multiline' in field}
            hint={'hint' in field ? field.hint : undefined}
            value={text[field.name]}
            onInput={change((value: string) => setText((previous) => ({ ...previous, [field.name]: value })))}
            fields={fields}
          />
        ))}
      </form>
      <ErrorText error={purposes.error} />
      {purposes.data ? (
        <Purposes
          purposes={purposes.data}
          selection={selection}
          onSelect={change(setSelection)}
          fields={fields}
          onSaved={(saved, created) => {
            purposes.reload();
            if (created) change(setSelection)([...selection, { purposeId: saved.id, isRequired: false }]);
          }}
        />
      ) : (
        <Loading what="purposes" />
      )}
      <div>
        <ErrorText error={error} id="notice-error" />
        <OtherMessages fields={fields} shown={[...textFields.map((field) => field.name), 'purposeIds', 'purposeConfig']} />
      </div>
      <div class="actions">
        <button type="submit" form="notice-form" disabled={busy}>
          Save
        </button>
        {actions?.(async () => (dirty ? save() : true))}
        <span role="status" class="muted">
          {said}
        </span>
      </div>
    </div>
  );
};
