import { useState } from 'preact/hooks';
import { api } from '../session';
import type { DataOf } from '../api';
import { Dialog, DialogActions, ErrorText, fieldErrors, useAction } from '../ui';
import { legalBases, type LegalBasis } from '../../../../shared/notices/notice';
import { FieldMessage, messageAt, OtherMessages, TextField } from './notice-fields';
import { bodyOf, draftOf, RetentionFields, retentionFieldNames, retentionSaid } from './retention-fields';

export type Purpose = DataOf<'listPurposes'>[number];
/** The notice's purposes in display order, each required or not. */
export type Selection = { purposeId: string; isRequired: boolean }[];

const basisLabel: Record<LegalBasis, string> = { CONSENT: 'Consent', LEGITIMATE_USE: 'Legitimate use' };

/** Creates or changes one purpose; the form keeps what was typed when the API refuses it. */
const PurposeForm = ({ purpose, onSaved, onCancel }: { purpose?: Purpose; onSaved: (saved: Purpose) => void; onCancel: () => void }) => {
  const [name, setName] = useState(purpose?.name ?? '');
  const [description, setDescription] = useState(purpose?.description ?? '');
  const [categories, setCategories] = useState(purpose?.dataCategories.join(', ') ?? '');
  const [legalBasis, setLegalBasis] = useState<LegalBasis>(purpose?.legalBasis ?? 'CONSENT');
  const [retention, setRetention] = useState(draftOf(purpose));
  const { busy, error, run } = useAction({ staysBusy: true });
  const fields = fieldErrors(error);
  const basisMessage = messageAt(fields, 'legalBasis');
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const dataCategories = categories
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean);
        const body = { name, description, dataCategories, legalBasis, ...bodyOf(retention) };
        await run(async () => onSaved(purpose ? await api.call('updatePurpose', { params: { id: purpose.id }, body }) : await api.call('createPurpose', { body })));
      }}
    >
      <TextField id="purpose-name" name="name" label="Name" value={name} onInput={setName} fields={fields} />
      <TextField id="purpose-description" name="description" label="Description" value={description} onInput={setDescription} fields={fields} multiline />
      <TextField
        id="purpose-categories"
        name="dataCategories"
        label="Data categories"
        hint="Separated by commas, for example: email, phone"
        value={categories}
        onInput={setCategories}
        fields={fields}
      />
      <div class="field">
        <label for="purpose-basis">Legal basis</label>
        <select
          id="purpose-basis"
          value={legalBasis}
          aria-invalid={basisMessage ? true : undefined}
          aria-describedby={basisMessage ? 'purpose-basis-error' : undefined}
          onChange={(event) => setLegalBasis(event.currentTarget.value as LegalBasis)}
        >
          {legalBases.map((basis) => (
            <option key={basis} value={basis}>
              {basisLabel[basis]}
            </option>
          ))}
        </select>
        <FieldMessage id="purpose-basis-error" message={basisMessage} />
      </div>
      <RetentionFields draft={retention} onChange={setRetention} fields={fields} idPrefix="purpose" />
      <ErrorText error={error} />
      <OtherMessages fields={fields} shown={['name', 'description', 'dataCategories', 'legalBasis', ...retentionFieldNames]} />
      <DialogActions submit="Save purpose" busy={busy} onCancel={onCancel} />
    </form>
  );
};

interface PurposesProps {
  purposes: Purpose[];
  selection: Selection;
  onSelect: (selection: Selection) => void;
  /** After a purpose was created or changed (a new one is added to the notice). */
  onSaved: (saved: Purpose, created: boolean) => void;
  fields: Record<string, string>;
}

/** The tenant's purposes, chosen for the notice in place; "New purpose" and "Edit" open a dialog. */
export const Purposes = ({ purposes, selection, onSelect, onSaved, fields }: PurposesProps) => {
  const [editing, setEditing] = useState<Purpose | 'new'>();
  const message = messageAt(fields, 'purposeIds') ?? messageAt(fields, 'purposeConfig');
  const chosen = new Map(selection.map((item) => [item.purposeId, item]));
  const toggle = (purposeId: string, include: boolean) =>
    onSelect(include ? [...selection, { purposeId, isRequired: false }] : selection.filter((item) => item.purposeId !== purposeId));
  const setRequired = (purposeId: string, isRequired: boolean) =>
    onSelect(selection.map((item) => (item.purposeId === purposeId ? { ...item, isRequired } : item)));
  return (
    <fieldset class="purposes" aria-describedby={message ? 'purposes-error' : undefined}>
      <legend>Purposes</legend>
      <FieldMessage id="purposes-error" message={message} />
      {purposes.length === 0 ? <p class="muted">No purposes yet: add the first one.</p> : null}
      <ul class="purpose-list">
        {purposes.map((purpose) => {
          const item = chosen.get(purpose.id);
          return (
            <li key={purpose.id}>
              <span class="check">
                <input type="checkbox" id={`include-${purpose.id}`} checked={item !== undefined} onChange={(event) => toggle(purpose.id, event.currentTarget.checked)} />
                <label for={`include-${purpose.id}`}>{purpose.name}</label>
              </span>
              <span class="muted">
                {purpose.dataCategories.join(', ')} · {basisLabel[purpose.legalBasis]} · {retentionSaid(purpose)}
              </span>
              {item ? (
                <span class="check">
                  <input type="checkbox" id={`required-${purpose.id}`} checked={item.isRequired} onChange={(event) => setRequired(purpose.id, event.currentTarget.checked)} />
                  <label for={`required-${purpose.id}`}>
                    Required<span class="visually-hidden"> for {purpose.name}</span>
                  </label>
                </span>
              ) : null}
              <button type="button" class="link" onClick={() => setEditing(purpose)}>
                Edit<span class="visually-hidden"> purpose {purpose.name}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <button type="button" class="secondary" onClick={() => setEditing('new')}>
        New purpose
      </button>
      {editing ? (
        <Dialog title={editing === 'new' ? 'New purpose' : `Edit purpose ${editing.name}`} onClose={() => setEditing(undefined)}>
          <PurposeForm
            purpose={editing === 'new' ? undefined : editing}
            onCancel={() => setEditing(undefined)}
            onSaved={(saved) => {
              onSaved(saved, editing === 'new');
              setEditing(undefined);
            }}
          />
        </Dialog>
      ) : null}
    </fieldset>
  );
};
