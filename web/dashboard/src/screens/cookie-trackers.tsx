import { useState } from 'preact/hooks';
import { cookieCategories } from '../../../../shared/cmp/categories';
import { api, canWrite } from '../session';
import { ErrorText, fieldErrors } from '../ui';
import { FieldError, problemOf, type Tracker } from './cookie-data';

type Category = Tracker['category'];
const blank = { domain: '', cookieName: '', category: 'ANALYTICS' as Category, vendor: '' };
const nameOf = (tracker: Tracker) => `${tracker.cookieName ?? '(whole domain)'} on ${tracker.domain}`;

const AddTracker = ({ onChanged }: { onChanged: (trackers: Tracker[]) => void }) => {
  const [form, setForm] = useState(blank);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const problems = fieldErrors(error);
  const problem = (field: string) => problemOf(problems, `trackers.0.${field}`);
  const field = (key: 'domain' | 'cookieName' | 'vendor', label: string) => (
    <div class="field">
      <label for={`tracker-${key}`}>{label}</label>
      <input
        id={`tracker-${key}`}
        value={form[key]}
        required={key === 'domain'}
        aria-invalid={problem(key) ? true : undefined}
        aria-describedby={problem(key) ? `tracker-${key}-error` : undefined}
        onInput={(event) => setForm({ ...form, [key]: event.currentTarget.value })}
      />
      <FieldError id={`tracker-${key}-error`} message={problem(key)} />
    </div>
  );
  return (
    <form
      class="inline-form"
      aria-labelledby="add-tracker-heading"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(undefined);
        try {
          const tracker = { domain: form.domain.trim(), category: form.category, ...(form.cookieName.trim() ? { cookieName: form.cookieName.trim() } : {}), ...(form.vendor.trim() ? { vendor: form.vendor.trim() } : {}) };
          onChanged((await api.call('upsertCmpTrackers', { body: { trackers: [tracker] } })).trackers);
          setForm(blank);
        } catch (failure) {
          setError(failure);
        } finally {
          setBusy(false);
        }
      }}
    >
      <h3 id="add-tracker-heading" class="full">Declare a tracker</h3>
      {field('domain', 'Domain')}
      {field('cookieName', 'Cookie name (empty: the whole domain)')}
      <div class="field">
        <label for="tracker-category">Category</label>
        <select id="tracker-category" value={form.category} onChange={(event) => setForm({ ...form, category: event.currentTarget.value as Category })}>
          {cookieCategories.map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </select>
      </div>
      {field('vendor', 'Vendor')}
      <button type="submit" disabled={busy}>
        Declare tracker
      </button>
      <ErrorText error={error} />
    </form>
  );
};

/** The registry: what the DPO declared and what the scanner found and added (declaredByAdmin false). */
export const TrackerRegistry = ({ trackers, onChanged }: { trackers: Tracker[]; onChanged: (trackers: Tracker[]) => void }) => {
  const [show, setShow] = useState<'all' | 'declared' | 'found'>('all');
  const [error, setError] = useState<unknown>();
  const writer = canWrite.value;
  const declared = trackers.filter((tracker) => tracker.declaredByAdmin).length;
  const shown = trackers.filter((tracker) => show === 'all' || tracker.declaredByAdmin === (show === 'declared'));
  const act = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
      onChanged(await api.call('listCmpTrackers'));
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section aria-labelledby="trackers-heading">
      <h2 id="trackers-heading">Tracker registry</h2>
      <p>
        {declared} declared by your team, {trackers.length - declared} found by the scanner and not yet declared. The banner lists them under their categories, and
        withdrawing a category deletes its cookies.
      </p>
      <div class="field inline">
        <label for="tracker-show">Show</label>
        <select id="tracker-show" value={show} onChange={(event) => setShow(event.currentTarget.value as typeof show)}>
          <option value="all">All trackers</option>
          <option value="declared">Declared</option>
          <option value="found">Found by the scanner</option>
        </select>
      </div>
      <ErrorText error={error} />
      {shown.length === 0 ? <p>No trackers here yet.</p> : null}
      {shown.length ? (
        <table class="trackers">
          <thead>
            <tr>
              <th scope="col">Domain</th>
              <th scope="col">Cookie</th>
              <th scope="col">Category</th>
              <th scope="col">Vendor</th>
              <th scope="col">Source</th>
              {writer ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {shown.map((tracker) => (
              <tr key={`${tracker.domain} ${tracker.cookieName ?? ''}`}>
                <td>{tracker.domain}</td>
                <td>{tracker.cookieName ?? <span class="muted">whole domain</span>}</td>
                <td>{tracker.category}</td>
                <td>{tracker.vendor ?? '—'}</td>
                <td>{tracker.declaredByAdmin ? <span class="badge active">Declared</span> : <span class="badge partial">Found by scanner</span>}</td>
                {writer ? (
                  <td class="row-actions">
                    {!tracker.declaredByAdmin ? (
                      <button type="button" class="link" onClick={() => act(() => api.call('upsertCmpTrackers', { body: { trackers: [{ ...tracker, declaredByAdmin: true }] } }))}>
                        Declare<span class="visually-hidden"> {nameOf(tracker)}</span>
                      </button>
                    ) : null}
                    <button
                      type="button"
                      class="link"
                      onClick={() => act(() => api.call('deleteCmpTracker', { body: { domain: tracker.domain, ...(tracker.cookieName ? { cookieName: tracker.cookieName } : {}) } }))}
                    >
                      Remove<span class="visually-hidden"> {nameOf(tracker)}</span>
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {writer ? <AddTracker onChanged={onChanged} /> : null}
    </section>
  );
};
