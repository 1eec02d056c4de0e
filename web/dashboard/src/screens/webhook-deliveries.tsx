import { useEffect, useRef, useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import type { DataOf } from '../api';
import { ErrorText, Loading, formatDateTime, useData } from '../ui';
import { eventLabel, type Webhook } from './webhook-form';

type Delivery = DataOf<'listWebhookDeliveries'>[number];

const statusText: Record<Delivery['status'], { text: string; badge: string }> = {
  SUCCESS: { text: 'Success', badge: 'active' },
  FAILED: { text: 'Failed', badge: 'withdrawn' },
  RETRYING: { text: 'Retrying', badge: 'partial' },
  PENDING: { text: 'Pending', badge: 'partial' },
};

/** How often, and how many times, the history is read again after "Send test" until the test delivery shows. */
const pollEveryMs = 1000;
const pollTimes = 10;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const Outcome = ({ delivery }: { delivery: Delivery }) => {
  const when = delivery.deliveredAt ?? delivery.failedAt;
  if (when) return <>{formatDateTime(when)}</>;
  if (delivery.nextAttemptAt) return <>Next attempt {formatDateTime(delivery.nextAttemptAt)}</>;
  return <>—</>;
};

const DeliveryRow = ({ delivery }: { delivery: Delivery }) => {
  const status = statusText[delivery.status];
  return (
    <tr>
      <td>
        {eventLabel(delivery.event)} <code>{delivery.event}</code>
      </td>
      <td>
        <span class={`badge ${status.badge}`}>{status.text}</span>
        {delivery.lastError ? <span class="hint">{delivery.lastError}</span> : null}
      </td>
      <td>{delivery.attempts}</td>
      <td>{delivery.statusCode ?? '—'}</td>
      <td>{formatDateTime(delivery.createdAt)}</td>
      <td>
        <Outcome delivery={delivery} />
      </td>
    </tr>
  );
};

/**
 * A webhook's last 50 deliveries, with "Send test": the test is queued, then the history is read
 * again every second (saying so) until the new test delivery has an outcome, or the checks run out.
 */
export const Deliveries = ({ webhook, describedBy }: { webhook: Webhook; describedBy: string }) => {
  const history = useData(() => api.call('listWebhookDeliveries', { params: { id: webhook.id } }), [webhook.id]);
  const [polled, setPolled] = useState<Delivery[]>();
  const [progress, setProgress] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  // A reload (Refresh history) supersedes what polling last read.
  useEffect(() => setPolled(undefined), [history.data]);
  const rows = polled ?? history.data;
  const headingId = `history-${webhook.id}`;

  // Not `disabled` while busy: that would drop the keyboard focus for the whole check.
  const sendTest = async () => {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      const known = new Set((rows ?? []).map((delivery) => delivery.id));
      await api.call('testWebhook', { params: { id: webhook.id } });
      setProgress('Test queued. Checking the delivery history…');
      for (let check = 1; check <= pollTimes && live.current; check++) {
        await wait(pollEveryMs);
        const latest = await api.call('listWebhookDeliveries', { params: { id: webhook.id } });
        if (!live.current) return;
        setPolled(latest);
        const test = latest.find((delivery) => delivery.event === 'webhook.test' && !known.has(delivery.id));
        if (test && test.status !== 'PENDING') {
          setProgress(`Test delivery: ${statusText[test.status].text.toLowerCase()}${test.statusCode ? ` (HTTP ${test.statusCode})` : ''}.`);
          return;
        }
        setProgress(`${test ? 'Test delivery pending' : 'Test queued'}. Checking the delivery history (check ${check} of ${pollTimes})…`);
      }
      setProgress('The test delivery has no outcome yet: use "Refresh history" in a moment.');
    } catch (failure) {
      setProgress('');
      setError(failure);
    } finally {
      if (live.current) setBusy(false);
    }
  };

  return (
    <section aria-labelledby={headingId} class="history">
      <h3 id={headingId}>Delivery history</h3>
      <div class="actions">
        {canWrite.value ? (
          <button type="button" class="secondary" aria-disabled={busy ? true : undefined} onClick={sendTest} aria-describedby={describedBy}>
            Send test
          </button>
        ) : null}
        <button type="button" class="secondary" onClick={history.reload} aria-describedby={describedBy}>
          Refresh history
        </button>
      </div>
      <p role="status" class="muted">
        {progress}
      </p>
      <ErrorText error={error ?? history.error} />
      {history.loading && !rows ? <Loading what="deliveries" /> : null}
      {rows && rows.length === 0 ? <p>No deliveries yet.</p> : null}
      {rows && rows.length > 0 ? (
        <table aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">HTTP status</th>
              <th scope="col">Created</th>
              <th scope="col">Delivered or failed</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} />
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
};
