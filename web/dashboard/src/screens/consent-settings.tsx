import { useEffect, useState } from 'preact/hooks';
import { api, canAudit, canWrite } from '../session';
import type { DataOf } from '../api';
import { ErrorText, Heading, Loading, formatDateTime, useAction, useData } from '../ui';
import { Choices, useSaid } from './parts';

type Settings = DataOf<'getConsentSettings'>;

const withdrawalModes: { value: Settings['publicWithdrawal']; label: string; hint: string }[] = [
  {
    value: 'IMMEDIATE',
    label: 'Withdraw at once',
    hint: "As the standard interface does: anyone with your page's API key and a person's email withdraws that person's consent. Each such withdrawal is recorded as what it is: an unverified claim of the email, with the page's origin and a hash of the IP address.",
  },
  {
    value: 'CONFIRM_BY_EMAIL',
    label: 'Confirm by email first (recommended)',
    hint: 'The address is mailed a single-use link to the withdrawal page, and the withdrawal happens when the person confirms there. Only the owner of the mailbox can withdraw, and the page is told the same for every address.',
  },
];

const settingNames: Record<string, string> = { requireVerifiedIdentity: 'Record only verified identities', publicWithdrawal: 'Withdrawal by email through the public API' };
/** A children policy field (children.<field>, logged like the settings) is named as such; its lists and issuers shown as JSON. */
const settingName = (name: string) => settingNames[name] ?? name.replace(/^children\./, 'Children policy: ');
const valueName = (value: unknown) =>
  value === true ? 'on' : value === false ? 'off' : typeof value === 'object' && value !== null ? JSON.stringify(value) : (withdrawalModes.find((mode) => mode.value === value)?.label ?? String(value));

/** The logged changes (DPO and SUPER_ADMIN: an audit read): each is a document in the tenant's evidence log. */
const Changes = ({ version }: { version: number }) => {
  const changes = useData(() => api.call('listConsentSettingsChanges'), [version]);
  return (
    <section aria-labelledby="changes-heading">
      <h2 id="changes-heading">Changes</h2>
      <p>Every change of a setting is logged in your evidence log, and checked with it.</p>
      <ErrorText error={changes.error} />
      {changes.data && changes.data.length === 0 ? <p>No changes yet: the defaults stand.</p> : null}
      {changes.data && changes.data.length > 0 ? (
        <ul class="changes">
          {changes.data.map((change) => (
            <li key={change.documentId}>
              {formatDateTime(change.at)}, {change.by}:{' '}
              {Object.entries(change.changes)
                .map(([name, { from, to }]) => `${settingName(name)}: ${valueName(from)} → ${valueName(to)}`)
                .join('; ')}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
};

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
  const [saves, setSaves] = useState(0);
  useEffect(() => {
    if (loaded.data) setDraft({ requireVerifiedIdentity: loaded.data.requireVerifiedIdentity, publicWithdrawal: loaded.data.publicWithdrawal });
  }, [loaded.data]);

  const save = (event: Event) => {
    event.preventDefault();
    if (!draft) return;
    void run(async () => {
      await api.call('saveConsentSettings', { body: draft });
      loaded.reload();
      setSaves((count) => count + 1);
      say('Settings saved; a change is logged in your evidence log.');
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
            <p class="hint" id="withdrawal-trade-off">
              The trade-off: your page's API key is public, so with "Withdraw at once" anyone who knows a person's email can withdraw that person's consent, and
              you must stop processing their data although nobody checked it was them. Such withdrawals are marked unverified wherever you see them. With
              "Confirm by email first" the person withdraws with one click in a mail, as easily as they consented, and nobody else can do it for them. We recommend
              confirming by email.
            </p>
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
      {canAudit.value ? <Changes version={saves} /> : null}
    </>
  );
}
