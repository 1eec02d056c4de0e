import { useState } from 'preact/hooks';
import { api, session } from '../session';
import { ApiError, type DataOf } from '../api';
import { ErrorText, Heading, Loading, fieldErrors, formatDate, useAction, useData } from '../ui';
import { ConfirmDialog, Field, useSaid } from './parts';
// shared/roles.ts is a pure module (no imports), already in the main bundle.
import { accessPolicy, roles, type Role } from '../../../../shared/roles';

type Member = DataOf<'listUsers'>[number];

export const roleName = (role: Role) => (role === 'DPO' ? 'DPO' : role.replace('_', ' ').toLowerCase().replace(/^./, (first) => first.toUpperCase()));

/** The plan's limit is its own state, named as such, with what to do about it; other errors are the API's message. */
const InviteError = ({ error }: { error: unknown }) =>
  error instanceof ApiError && error.code === 'PLAN_LIMIT_REACHED' ? (
    <p class="error" role="alert">
      Plan limit reached: {error.message.replace(/\.$/, '')}. Remove a user to invite another, or move to a larger plan.
    </p>
  ) : (
    <ErrorText error={error} />
  );

const InviteForm = ({ onInvited }: { onInvited: (member: Member, mailed: boolean) => void }) => {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('VIEWER');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const problems = fieldErrors(error);
  return (
    <section aria-labelledby="invite-heading" class="panel">
      <h2 id="invite-heading">Invite a user</h2>
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          // On failure the form keeps what was typed; the API says why (a taken email, the plan's limit, a field).
          await run(async () => {
            const member = await api.call('inviteUser', { body: { email: email.trim(), role, ...(password ? { password } : {}) } });
            setEmail('');
            setPassword('');
            onInvited(member, !password);
          });
        }}
      >
        <Field id="invite-email" label="Email" problem={problems.email}>
          {(control) => <input {...control} type="email" autoComplete="off" required value={email} onInput={(event) => setEmail(event.currentTarget.value)} />}
        </Field>
        <Field id="invite-role" label="Role" hint="DPO and super admin change settings; analyst and viewer only read. Only a super admin manages the team." problem={problems.role}>
          {(control) => (
            <select {...control} value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
              {roles.map((item) => (
                <option key={item} value={item}>
                  {roleName(item)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          id="invite-password"
          label="Initial password (optional)"
          hint="At least 10 characters; tell it to the user yourself. Leave empty to mail them a set-password link (valid 7 days, single use)."
          problem={problems.password}
        >
          {(control) => <input {...control} type="password" autoComplete="new-password" value={password} onInput={(event) => setPassword(event.currentTarget.value)} />}
        </Field>
        <InviteError error={error} />
        <button type="submit" disabled={busy}>
          Invite user
        </button>
      </form>
    </section>
  );
};

const Members = ({ members, onRemoved }: { members: Member[]; onRemoved: (member: Member) => void }) => {
  const [removing, setRemoving] = useState<Member>();
  const self = session.value?.userId;
  return (
    <>
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Added</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.userId}>
              <td id={`member-${member.userId}`}>{member.email}</td>
              <td>{roleName(member.role)}</td>
              <td>{formatDate(member.createdAt)}</td>
              <td>
                {/* Removing yourself is refused (so a tenant always keeps a super admin): not offered. */}
                {member.userId === self ? (
                  <span class="muted">You</span>
                ) : (
                  <button type="button" class="secondary" aria-describedby={`member-${member.userId}`} onClick={() => setRemoving(member)}>
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {removing ? (
        <ConfirmDialog
          title="Remove this user?"
          confirm="Remove user"
          act={() => api.call('removeUser', { params: { userId: removing.userId } })}
          onClose={() => setRemoving(undefined)}
          onDone={() => {
            setRemoving(undefined);
            onRemoved(removing);
          }}
        >
          <p>
            <strong>{removing.email}</strong> can no longer sign in (a session already open ends within 15 minutes). Their place in the plan's team-member limit is freed.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
};

const ManageTeam = () => {
  const team = useData(() => api.call('listUsers'));
  const { say, line } = useSaid();
  const changed = (text: string) => {
    say(text);
    team.reload();
  };
  return (
    <>
      <InviteForm
        onInvited={(member, mailed) =>
          changed(`Invited ${member.email} as ${roleName(member.role)}. ${mailed ? 'A set-password link was mailed to them.' : 'They can sign in now with the password you set.'}`)
        }
      />
      {line}
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <ErrorText error={team.error} />
        {team.loading && !team.data ? <Loading what="the team" /> : null}
        {team.data ? <Members members={team.data} onRemoved={(member) => changed(`Removed ${member.email}.`)} /> : null}
      </section>
    </>
  );
};

export default function Team() {
  const role = session.value?.role;
  const canManage = role !== undefined && (accessPolicy.admin as readonly Role[]).includes(role);
  return (
    <>
      <Heading title="Team">Team</Heading>
      {canManage ? (
        <>
          <p>Who may sign in to this dashboard for your organisation, and with which role.</p>
          <ManageTeam />
        </>
      ) : (
        <p>Only a super admin can manage the team: ask yours to invite, change or remove users.</p>
      )}
    </>
  );
}
