import { useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import { ErrorText, Heading, Loading, formatDate, useData } from '../ui';
import { ConfirmDialog, useSaid } from './parts';
import { Deliveries } from './webhook-deliveries';
import { WebhookForm, eventLabel, type Webhook } from './webhook-form';

const WebhookCard = ({ webhook, onChanged }: { webhook: Webhook; onChanged: (said: string) => void }) => {
  const [open, setOpen] = useState<'edit' | 'delete'>();
  const headingId = `webhook-${webhook.id}`;
  return (
    <li class="card">
      <h2 id={headingId}>
        {webhook.label}
        {webhook.isActive ? <span class="badge active">Active</span> : <span class="badge withdrawn">Inactive</span>}
      </h2>
      <dl class="pairs">
        <dt>URL</dt>
        <dd>
          <code class="wrap">{webhook.url}</code>
        </dd>
        <dt>Events</dt>
        <dd>{webhook.events.map(eventLabel).join(', ')}</dd>
        <dt>Created</dt>
        <dd>{formatDate(webhook.createdAt)}</dd>
      </dl>
      {canWrite.value ? (
        <div class="actions">
          <button type="button" class="secondary" aria-describedby={headingId} onClick={() => setOpen('edit')}>
            Edit
          </button>
          <button type="button" class="danger" aria-describedby={headingId} onClick={() => setOpen('delete')}>
            Delete
          </button>
        </div>
      ) : null}
      <Deliveries webhook={webhook} describedBy={headingId} />
      {open === 'edit' ? (
        <WebhookForm
          webhook={webhook}
          onClose={() => setOpen(undefined)}
          onSaved={(saved) => {
            setOpen(undefined);
            onChanged(`Webhook "${saved.label}" saved.`);
          }}
        />
      ) : null}
      {open === 'delete' ? (
        <ConfirmDialog
          title="Delete this webhook?"
          confirm="Delete webhook"
          act={() => api.call('deleteWebhook', { params: { id: webhook.id } })}
          onClose={() => setOpen(undefined)}
          onDone={() => {
            setOpen(undefined);
            onChanged(`Webhook "${webhook.label}" deleted.`);
          }}
        >
          <p>
            Events stop going to <code>{webhook.url}</code> and its delivery history is deleted. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </li>
  );
};

export default function Webhooks() {
  const webhooks = useData(() => api.call('listWebhooks'));
  const [adding, setAdding] = useState(false);
  const { say, line } = useSaid();
  const changed = (text: string) => {
    say(text);
    webhooks.reload();
  };
  return (
    <>
      <Heading title="Webhooks">Webhooks</Heading>
      <p>Webhooks POST each event to your server as it happens, signed with the webhook's secret, retried up to 5 times when the server does not answer 2xx.</p>
      {canWrite.value ? (
        <p>
          <button type="button" onClick={() => setAdding(true)}>
            Add webhook
          </button>
        </p>
      ) : null}
      {line}
      {adding ? (
        <WebhookForm
          onClose={() => setAdding(false)}
          onSaved={(saved) => {
            setAdding(false);
            changed(`Webhook "${saved.label}" created.`);
          }}
        />
      ) : null}
      <ErrorText error={webhooks.error} />
      {webhooks.loading && !webhooks.data ? <Loading what="webhooks" /> : null}
      {webhooks.data && webhooks.data.length === 0 ? <p>No webhooks yet.</p> : null}
      {webhooks.data && webhooks.data.length > 0 ? (
        <ul class="cards">
          {webhooks.data.map((webhook) => (
            <WebhookCard key={webhook.id} webhook={webhook} onChanged={changed} />
          ))}
        </ul>
      ) : null}
    </>
  );
}
