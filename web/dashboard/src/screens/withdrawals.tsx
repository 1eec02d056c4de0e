import { useEffect, useRef, useState } from 'preact/hooks';
import { api, canWrite } from '../session';
import type { DataOf } from '../api';
import { CopyButton, ErrorText, Heading, Loading, fieldErrors, formatDate, formatDateTime, useAction, useData } from '../ui';
import { WithdrawalAttributionNote, withdrawalMethodText } from './withdrawal-words';

type Task = DataOf<'listComplianceTasks'>[number];

const isOverdue = (task: Task) => task.status === 'OVERDUE' || (task.status === 'OPEN' && Date.parse(task.dueAt) < Date.now());

const TaskRow = ({ task, onDone }: { task: Task; onDone: (task: Task) => void }) => {
  const { busy, error, run } = useAction();
  const [justDone, setJustDone] = useState(false);
  const statusRef = useRef<HTMLSpanElement>(null);
  // The button goes once the task is done: the focus moves to the task's new status, not to the page.
  useEffect(() => {
    if (justDone) statusRef.current?.focus();
  }, [justDone]);
  const overdue = isOverdue(task);
  return (
    <tr>
      <td>
        {task.description}
        <p class="muted">Made {withdrawalMethodText(task.withdrawalMethod)}.</p>
        <WithdrawalAttributionNote attribution={task.withdrawalAttribution} />
      </td>
      <td>
        {formatDate(task.dueAt)}
        {overdue ? <span class="badge overdue">Overdue</span> : null}
      </td>
      <td>
        <span ref={statusRef} tabIndex={justDone ? -1 : undefined} class={`badge ${task.status === 'DONE' ? 'active' : overdue ? 'overdue' : 'partial'}`}>
          {task.status === 'DONE' ? 'Done' : overdue ? 'Overdue' : 'Open'}
        </span>
        {task.completedAt ? <span class="muted"> {formatDateTime(task.completedAt)}</span> : null}
      </td>
      {canWrite.value ? (
        <td>
          {task.status !== 'DONE' ? (
            <button
              type="button"
              class="secondary"
              disabled={busy}
              aria-describedby={error ? `task-error-${task.taskId}` : undefined}
              onClick={() =>
                run(async () => {
                  onDone(await api.call('completeComplianceTask', { params: { id: task.taskId } }));
                  setJustDone(true);
                })
              }
            >
              Mark done<span class="visually-hidden">: {task.description}</span>
            </button>
          ) : null}
          <ErrorText error={error} id={`task-error-${task.taskId}`} />
        </td>
      ) : null}
    </tr>
  );
};

const WithdrawalLink = () => {
  const notices = useData(() => api.call('listNotices', {}));
  const published = (notices.data ?? []).filter((notice) => notice.status === 'PUBLISHED');
  const [identifier, setIdentifier] = useState('');
  const [noticeId, setNoticeId] = useState('');
  const { busy, error, run } = useAction();
  const [link, setLink] = useState<DataOf<'createWithdrawalToken'>>();
  const chosen = noticeId || published[0]?.id || '';
  const problems = fieldErrors(error);
  return (
    <section aria-labelledby="link-heading" class="panel">
      <h2 id="link-heading">Withdrawal link for a principal</h2>
      <p>A single-use link (valid 7 days) to the withdrawal page, for a principal who asked you to withdraw their consent.</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setLink(undefined);
          // On failure the form keeps what was typed; the API's message says why.
          await run(async () => setLink(await api.call('createWithdrawalToken', { body: { dataPrincipalIdentifier: identifier.trim(), noticeId: chosen } })));
        }}
      >
        <div class="field">
          <label for="link-identifier">Principal's email or identifier</label>
          <input
            id="link-identifier"
            required
            value={identifier}
            aria-invalid={problems.dataPrincipalIdentifier ? true : undefined}
            onInput={(event) => setIdentifier(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="link-notice">Notice</label>
          <select id="link-notice" value={chosen} onChange={(event) => setNoticeId(event.currentTarget.value)} disabled={published.length === 0}>
            {published.map((notice) => (
              <option key={notice.id} value={notice.id}>
                {notice.title} (version {notice.versionNumber})
              </option>
            ))}
          </select>
          {notices.data && published.length === 0 ? <span class="hint">No published notice yet.</span> : null}
        </div>
        <ErrorText error={error ?? notices.error} />
        <button type="submit" disabled={busy || !chosen}>
          Create withdrawal link
        </button>
      </form>
      {link ? (
        <div class="result ok" role="status">
          <p>
            Withdrawal link (expires {formatDateTime(link.expiresAt)}):{' '}
            <a href={link.portalUrl} id="portal-url" rel="noreferrer">
              {link.portalUrl}
            </a>
          </p>
          <CopyButton text={link.portalUrl} label="Copy link" />
        </div>
      ) : null}
    </section>
  );
};

export default function Withdrawals() {
  const [status, setStatus] = useState<'' | 'OPEN' | 'OVERDUE' | 'DONE'>('');
  const tasks = useData(() => api.call('listComplianceTasks', { query: { status: status || undefined } }), [status]);
  const [updated, setUpdated] = useState<Record<string, Task>>({});
  const rows = (tasks.data ?? []).map((task) => updated[task.taskId] ?? task).sort((a, b) => a.dueAt.localeCompare(b.dueAt));
  return (
    <>
      <Heading title="Withdrawals">Withdrawals</Heading>
      {canWrite.value ? <WithdrawalLink /> : null}
      <section aria-labelledby="tasks-heading">
        <h2 id="tasks-heading">Compliance tasks</h2>
        <p>Each withdrawal gives a task due in 7 days: stop the processing the principal withdrew from, then mark it done.</p>
        <div class="field inline">
          <label for="task-status">Show</label>
          <select id="task-status" value={status} onChange={(event) => setStatus(event.currentTarget.value as typeof status)}>
            <option value="">All tasks</option>
            <option value="OPEN">Open</option>
            <option value="OVERDUE">Overdue</option>
            <option value="DONE">Done</option>
          </select>
        </div>
        <ErrorText error={tasks.error} />
        {tasks.loading && !tasks.data ? <Loading what="tasks" /> : null}
        {tasks.data && rows.length === 0 ? <p>No compliance tasks.</p> : null}
        {rows.length > 0 ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Due</th>
                <th scope="col">Status</th>
                {canWrite.value ? <th scope="col">Action</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((task) => (
                <TaskRow key={task.taskId} task={task} onDone={(done) => setUpdated((previous) => ({ ...previous, [done.taskId]: done }))} />
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
    </>
  );
}
