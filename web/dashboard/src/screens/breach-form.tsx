import { useState } from 'preact/hooks';
import { api } from '../session';
import { Dialog, DialogActions, ErrorText, fieldErrors, useAction, useData } from '../ui';
import { describedFields, isoOfLocal, localOfIso, reportFields, zoneLabel, type Breach, type BreachSummary } from './breach-parts';
import { Field } from './parts';

type Scope = 'ALL' | 'NOTICES' | 'PURPOSES' | 'PRINCIPALS';

/** A field's message, or the first of its items' (`dataCategories.0`, `affected.noticeIds`). */
const problemOf = (problems: Record<string, string>, name: string) => problems[name] ?? Object.entries(problems).find(([key]) => key.startsWith(`${name}.`))?.[1];

type TextName = (typeof describedFields)[number][0] | (typeof reportFields)[number][0] | 'title';

/** A checkbox list of the tenant's notices or purposes, for the affected scope. */
const Choices = ({ legend, options, chosen, onChange, problem }: { legend: string; options: { id: string; label: string }[]; chosen: string[]; onChange: (ids: string[]) => void; problem?: string | undefined }) => (
  <fieldset aria-describedby={problem ? 'breach-choices-problem' : undefined}>
    <legend>{legend}</legend>
    {options.length === 0 ? <p class="muted">None yet.</p> : null}
    {options.map((option) => (
      <label key={option.id} class="check">
        <input type="checkbox" checked={chosen.includes(option.id)} onChange={(event) => onChange(event.currentTarget.checked ? [...chosen, option.id] : chosen.filter((id) => id !== option.id))} /> {option.label}
      </label>
    ))}
    {problem ? (
      <span class="hint error" id="breach-choices-problem">
        {problem}
      </span>
    ) : null}
  </fieldset>
);

/**
 * Records a breach, or changes one (given `breach`: only what changed is sent, the report's items
 * too). A failed save names each field with the API's message and keeps what was typed.
 */
export const BreachForm = ({ breach, onSaved, onClose }: { breach?: Breach; onSaved: (saved: BreachSummary) => void; onClose: () => void }) => {
  const [values, setValues] = useState<Record<TextName, string>>(() => ({
    title: breach?.title ?? '',
    nature: breach?.nature ?? '',
    extent: breach?.extent ?? '',
    location: breach?.location ?? '',
    likelyImpact: breach?.likelyImpact ?? '',
    factsAndReasons: breach?.factsAndReasons ?? '',
    mitigationMeasures: breach?.mitigationMeasures ?? '',
    causeFindings: breach?.causeFindings ?? '',
    remedialMeasures: breach?.remedialMeasures ?? '',
  }));
  const [awareAt, setAwareAt] = useState(localOfIso(breach?.awareAt));
  const [occurredAt, setOccurredAt] = useState(localOfIso(breach?.occurredAt));
  const [categories, setCategories] = useState((breach?.dataCategories ?? []).join(', '));
  const [scope, setScope] = useState<Scope>(breach?.affected.scope ?? 'ALL');
  const [noticeIds, setNoticeIds] = useState<string[]>(breach?.affected.noticeIds ?? []);
  const [purposeIds, setPurposeIds] = useState<string[]>(breach?.affected.purposeIds ?? []);
  const [hashes, setHashes] = useState('');
  const [assetIds, setAssetIds] = useState<string[]>(breach?.assets.map((asset) => asset.assetId) ?? []);
  const notices = useData(() => api.call('listNotices', {}));
  const purposes = useData(() => api.call('listPurposes'));
  // The data map is on the standard plan only: without it (403) the choice is simply not offered.
  const assets = useData(() => api.call('listDataAssets'));
  const { busy, error, run } = useAction({ staysBusy: true });
  const problems = fieldErrors(error);
  const set = (name: TextName) => (event: { currentTarget: { value: string } }) => setValues({ ...values, [name]: event.currentTarget.value });

  const submit = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      const dataCategories = categories.split(',').map((category) => category.trim()).filter(Boolean);
      const affected = {
        scope,
        ...(scope === 'NOTICES' ? { noticeIds } : {}),
        ...(scope === 'PURPOSES' ? { purposeIds } : {}),
      };
      const description = { title: values.title, awareAt: isoOfLocal(awareAt) ?? '', nature: values.nature, extent: values.extent, location: values.location, likelyImpact: values.likelyImpact, dataCategories, assetIds };
      if (!breach) {
        const listed = hashes.split(/\s+/).filter(Boolean);
        const occurred = isoOfLocal(occurredAt);
        onSaved(await api.call('createBreach', { body: { ...description, ...(occurred ? { occurredAt: occurred } : {}), affected: { ...affected, ...(scope === 'PRINCIPALS' && listed.length > 0 ? { principalHashes: listed } : {}) } } }));
        return;
      }
      const report = Object.fromEntries(reportFields.map(([name]) => [name, values[name].trim() || null]));
      const proposed: Record<string, unknown> = { ...description, occurredAt: isoOfLocal(occurredAt) ?? null, affected, ...report };
      const current: Record<string, unknown> = { ...breach, assetIds: breach.assets.map((asset) => asset.assetId), affected: { scope: breach.affected.scope, ...(breach.affected.scope === 'NOTICES' ? { noticeIds: breach.affected.noticeIds } : {}), ...(breach.affected.scope === 'PURPOSES' ? { purposeIds: breach.affected.purposeIds } : {}) } };
      const changed = Object.fromEntries(Object.entries(proposed).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(current[name] ?? null)));
      onSaved(Object.keys(changed).length > 0 ? await api.call('updateBreach', { params: { breachId: breach.breachId }, body: changed }) : breach);
    });
  };

  const text = (name: TextName, label: string, max: number, multiline = true) => (
    <Field key={name} id={`breach-${name}`} label={label} problem={problemOf(problems, name)}>
      {(control) =>
        multiline ? (
          <textarea {...control} rows={3} class="prose" maxLength={max} value={values[name]} onInput={set(name)} />
        ) : (
          <input {...control} class="wide-text" maxLength={max} value={values[name]} onInput={set(name)} />
        )
      }
    </Field>
  );

  return (
    <Dialog title={breach ? 'Edit breach' : 'Record a breach'} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        {text('title', 'Title', 200, false)}
        <Field id="breach-aware" label={`Became aware at (${zoneLabel()})`} hint="Both clocks start here: the Board intimation is due without delay, the detailed report 72 hours later." problem={problems.awareAt}>
          {(control) => <input {...control} type="datetime-local" required value={awareAt} onInput={(event) => setAwareAt(event.currentTarget.value)} />}
        </Field>
        <Field id="breach-occurred" label={`Occurred at, if known (${zoneLabel()})`} problem={problems.occurredAt}>
          {(control) => <input {...control} type="datetime-local" value={occurredAt} onInput={(event) => setOccurredAt(event.currentTarget.value)} />}
        </Field>
        {describedFields.map(([name, label, max]) => text(name, label, max))}
        <Field id="breach-categories" label="Data categories" hint="Separated by commas, e.g. email, address." problem={problemOf(problems, 'dataCategories')}>
          {(control) => <input {...control} class="wide-text" value={categories} onInput={(event) => setCategories(event.currentTarget.value)} />}
        </Field>
        {(assets.data ?? []).length > 0 ? (
          <Choices legend="Data map assets it touched" options={(assets.data ?? []).map((asset) => ({ id: asset.assetId, label: `${asset.name} (${asset.system})` }))} chosen={assetIds} onChange={setAssetIds} problem={problemOf(problems, 'assetIds')} />
        ) : null}
        <Field id="breach-scope" label="Affected principals" problem={problems['affected.scope']}>
          {(control) => (
            <select {...control} value={scope} onChange={(event) => setScope(event.currentTarget.value as Scope)}>
              <option value="ALL">Everyone with a consent record</option>
              <option value="NOTICES">Those who consented to some notices</option>
              <option value="PURPOSES">Those who granted some purposes</option>
              <option value="PRINCIPALS">Listed principals (by hash)</option>
            </select>
          )}
        </Field>
        {scope === 'NOTICES' ? (
          <Choices legend="Notices" options={(notices.data ?? []).map((notice) => ({ id: notice.id, label: `${notice.title} (version ${notice.versionNumber ?? 'draft'}, ${notice.status.toLowerCase()})` }))} chosen={noticeIds} onChange={setNoticeIds} problem={problemOf(problems, 'affected.noticeIds')} />
        ) : null}
        {scope === 'PURPOSES' ? (
          <Choices legend="Purposes" options={(purposes.data ?? []).map((purpose) => ({ id: purpose.id, label: purpose.name }))} chosen={purposeIds} onChange={setPurposeIds} problem={problemOf(problems, 'affected.purposeIds')} />
        ) : null}
        {scope === 'PRINCIPALS' && !breach ? (
          <Field id="breach-hashes" label="Principal hashes" hint="SHA-256 of each identifier (as dataPrincipalHash), one per line; at most 10,000." problem={problemOf(problems, 'affected.principalHashes')}>
            {(control) => <textarea {...control} rows={4} value={hashes} onInput={(event) => setHashes(event.currentTarget.value)} />}
          </Field>
        ) : null}
        {breach ? (
          <fieldset>
            <legend>Detailed report items</legend>
            {reportFields.map(([name, label]) => text(name, label, 8000))}
          </fieldset>
        ) : null}
        <ErrorText error={error ?? notices.error ?? purposes.error} />
        <DialogActions submit={breach ? 'Save changes' : 'Record breach'} busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
};
