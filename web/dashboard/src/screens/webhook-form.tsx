import { useState } from 'preact/hooks';
import { api } from '../session';
import type { DataOf } from '../api';
import { Dialog, DialogActions, ErrorText, fieldErrors, useAction } from '../ui';
import { Field } from './parts';
// Type only: the catalogue itself imports zod, so the list below is kept here and checked against it.
import type { SubscribableEvent } from '../../../../shared/events/catalogue';

export type Webhook = DataOf<'listWebhooks'>[number];

/** Every subscribable event type, in the catalogue's order; `satisfies` fails the build when the catalogue changes. */
const eventTypes = {
  'consent.recorded': { label: 'Consent recorded', emitted: true },
  'consent.withdrawn': { label: 'Consent withdrawn', emitted: true },
  'rights.submitted': { label: 'Rights request submitted', emitted: true },
  'rights.resolved': { label: 'Rights request resolved', emitted: true },
  'breach.reported': { label: 'Breach reported to the Board', emitted: true },
  'notice.published': { label: 'Notice published', emitted: true },
  'breach.created': { label: 'Breach recorded', emitted: true },
  'breach.principals': { label: 'Breach: principals for you to intimate', emitted: true },
  'webhook.test': { label: 'Test event', emitted: true },
  'consent.guardian_requested': { label: 'Child’s consent: guardian asked', emitted: true },
  'consent.guardian_verified': { label: 'Child’s consent: guardian approved', emitted: true },
  'consent.guardian_refused': { label: 'Child’s consent: guardian refused', emitted: true },
  'consent.guardian_expired': { label: 'Child’s consent: guardian request expired', emitted: true },
  'consent.majority_reached': { label: 'Child came of age', emitted: true },
  'retention.notice_due': { label: 'Erasure notice due', emitted: true },
  'retention.erasure_due': { label: 'Erasure due', emitted: true },
  'log.checkpoint': { label: 'Evidence log signed (checkpoint)', emitted: true },
} as const satisfies Record<SubscribableEvent, { label: string; emitted: boolean }>;

const allEvents = Object.keys(eventTypes) as SubscribableEvent[];
export const eventLabel = (type: string) => (eventTypes as Record<string, { label: string } | undefined>)[type]?.label ?? type;

/** The events fieldset's message: the API names the array or one of its items (`events.0`). */
const eventsProblem = (problems: Record<string, string>) => Object.entries(problems).find(([name]) => name === 'events' || name.startsWith('events.'))?.[1];

/**
 * Adds a webhook, or edits one (given `webhook`): a failed save shows the API's message and each
 * field's own, and keeps everything typed. The secret is write-only: editing leaves it unchanged
 * unless a new one is typed.
 */
export const WebhookForm = ({ webhook, onSaved, onClose }: { webhook?: Webhook; onSaved: (saved: Webhook) => void; onClose: () => void }) => {
  const [label, setLabel] = useState(webhook?.label ?? '');
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [secret, setSecret] = useState('');
  const [events, setEvents] = useState<SubscribableEvent[]>((webhook?.events ?? ['consent.recorded', 'consent.withdrawn']) as SubscribableEvent[]);
  const [isActive, setActive] = useState(webhook?.isActive ?? true);
  const { busy, error, run } = useAction({ staysBusy: true });
  const problems = fieldErrors(error);
  const eventsError = eventsProblem(problems);

  const submit = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      const fields = { label: label.trim(), url: url.trim(), events };
      const saved = webhook
        ? await api.call('updateWebhook', { params: { id: webhook.id }, body: { ...fields, isActive, ...(secret ? { secret } : {}) } })
        : await api.call('createWebhook', { body: { ...fields, secret } });
      onSaved(saved);
    });
  };

  return (
    <Dialog title={webhook ? 'Edit webhook' : 'Add webhook'} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field id="webhook-label" label="Label" problem={problems.label}>
          {(control) => <input {...control} required maxLength={100} value={label} onInput={(event) => setLabel(event.currentTarget.value)} />}
        </Field>
        <Field id="webhook-url" label="URL" hint="Where events are POSTed: an https address of your server." problem={problems.url}>
          {(control) => <input {...control} type="url" required class="wide" value={url} placeholder="https://example.com/hooks/consent" onInput={(event) => setUrl(event.currentTarget.value)} />}
        </Field>
        <Field
          id="webhook-secret"
          label={webhook ? 'New signing secret' : 'Signing secret'}
          hint={
            webhook
              ? 'Leave empty to keep the current secret (it is never shown again).'
              : 'At least 16 characters. Each delivery is signed with it; it is never shown again.'
          }
          problem={problems.secret}
        >
          {(control) => (
            <input {...control} required={!webhook} class="wide" autoComplete="off" spellcheck={false} value={secret} onInput={(event) => setSecret(event.currentTarget.value)} />
          )}
        </Field>
        <fieldset class="events" aria-describedby={eventsError ? 'webhook-events-problem' : undefined}>
          <legend>Events</legend>
          {allEvents.map((type) => (
            <label key={type} class="check">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(event) => {
                  const checked = event.currentTarget.checked;
                  setEvents((previous) => (checked ? allEvents.filter((item) => item === type || previous.includes(item)) : previous.filter((item) => item !== type)));
                }}
              />{' '}
              {eventTypes[type].label} <code>{type}</code>
              {eventTypes[type].emitted ? null : <span class="muted"> (not sent yet)</span>}
            </label>
          ))}
          {eventsError ? (
            <span class="hint error" id="webhook-events-problem">
              {eventsError}
            </span>
          ) : null}
        </fieldset>
        {webhook ? (
          <label class="check">
            <input type="checkbox" checked={isActive} onChange={(event) => setActive(event.currentTarget.checked)} /> Active (deliver events to this URL)
          </label>
        ) : null}
        <ErrorText error={error} />
        <DialogActions submit={webhook ? 'Save changes' : 'Create webhook'} busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
};
