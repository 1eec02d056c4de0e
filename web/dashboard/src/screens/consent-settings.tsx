import { useEffect, useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import type { DataOf } from '../api';
import { ErrorText, Heading, Loading, formatDateTime, useAction, useData } from '../ui';
import { Choices, useSaid } from './parts';

type Settings = DataOf<'getConsentSettings'>;

const withdrawalModes: { value: Settings['publicWithdrawal']; label: string; hint: string }[] = [
  {
    value: 'IMMEDIATE',
    label: 'Withdraw at once',
    hint: "As the standard interface does: anyone with your page's API key and a person's email withdraws that person's consent.",
  },
  {
    value: 'CONFIRM_BY_EMAIL',
    label: 'Confirm by email first',
    hint: 'The address is mailed a single-use link to the withdrawal page, and the withdrawal happens when the person confirms there.',
  },
];

/**
 * The tenant's two consent settings: whether only verified identities are recorded, and how a
 * withdrawal by email through the public API takes effect. Every role sees them; DPO and
 * SUPER_ADMIN change them (the fieldset is disabled for the others, and the API refuses them too).
 */
export default function ConsentSettings() {
  const loaded = useData(() => api.call('getConsentSettings'));
  const [draft, setDraft] = useState<Pick<Settings, 'requireVerifiedIdentity' | 'publicWithdrawal'>>();
  const { busy, error, run } = useAction();
  const { say, line } = useSaid();
  const writer = canWrite.value;
  useEffect(() => {
    if (loaded.data) setDraft({ requireVerifiedIdentity: loaded.data.requireVerifiedIdentity, publicWithdrawal: loaded.data.publicWithdrawal });
  }, [loaded.data]);

  const save = (event: Event) => {
    event.preventDefault();
    if (!draft) return;
    void run(async () => {
      await api.call('saveConsentSettings', { body: draft });
      loaded.reload();
      say('Settings saved. They apply from the next request on.');
    });
  };

  return (
    <>
      <Heading title="Consent settings">Consent settings</Heading>
      {loaded.loading && !draft ? <Loading what="the settings" /> : null}
      <ErrorText error={loaded.error} />
      {draft ? (
        <form onSubmit={save}>
          <fieldset disabled={!writer}>
            <legend>Who may put a consent on record</legend>
            <label class="check">
              <input
                type="checkbox"
                checked={draft.requireVerifiedIdentity}
                aria-describedby="verified-hint"
                onChange={(event) => setDraft({ ...draft, requireVerifiedIdentity: event.currentTarget.checked })}
              />{' '}
              Record only verified identities
            </label>
            <p class="hint" id="verified-hint">
              The widget's records are then refused unless your server signed the visitor's identifier hash with a secret key (or your server recorded them itself).
              Anonymous visitors and unsigned hashes cannot record consent: turn this on only when every page with the notice identifies the visitor.
            </p>
          </fieldset>
          <fieldset disabled={!writer}>
            <legend>Withdrawal by email through the public API</legend>
            <Choices name="public-withdrawal" choices={withdrawalModes} chosen={draft.publicWithdrawal} onChoose={(publicWithdrawal) => setDraft({ ...draft, publicWithdrawal })} />
          </fieldset>
          <ErrorText error={error} />
          {writer ? (
            <button type="submit" disabled={busy}>
              Save settings
            </button>
          ) : (
            <p class="muted">Your role can view these settings; a DPO changes them.</p>
          )}
          {line}
          <p class="muted">Last changed: {loaded.data?.updatedAt ? formatDateTime(loaded.data.updatedAt) : 'never (the defaults)'}</p>
        </form>
      ) : null}
    </>
  );
}
