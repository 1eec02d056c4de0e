import { useState } from 'preact/hooks';
import { api } from '../session';
import { ErrorText, Heading, Link, fieldErrors } from '../ui';
import { Field } from './parts';

/**
 * The token of a set-password link rides in the fragment (`#token=…`), which the browser never
 * sends to a server. It is read once and the fragment dropped from the address bar, so the
 * single-use token does not linger in the history.
 */
const takeToken = (): string => {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);
  return token;
};

/** The page an invited user's mail links to: public (no session), sets the first password. */
export default function SetPassword() {
  const [token] = useState(takeToken);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();
  const problems = fieldErrors(error);
  if (done) {
    return (
      <>
        <Heading title="Password set">Password set</Heading>
        <p role="status">
          Your password is set. Sign in with <strong>{done}</strong> and your new password.
        </p>
        <p>
          <Link to="/">Sign in</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <Heading title="Set your password">Set your password</Heading>
      {token ? (
        <p class="muted">Choose the password you will sign in to the consent dashboard with. This link works once.</p>
      ) : (
        <p class="error" role="alert">
          This link has no token. Open the link from your invitation mail again, or ask your administrator for a new invitation.
        </p>
      )}
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            const user = await api.call('setPassword', { body: { token, password } });
            setDone(user.email);
          } catch (failure) {
            // The API's message (unknown, expired or used link; a too short password); the password stays typed.
            setError(failure);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field id="new-password" label="New password" hint="At least 10 characters." problem={problems.password}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="new-password"
              required
              minLength={10}
              value={password}
              onInput={(event) => setPassword(event.currentTarget.value)}
            />
          )}
        </Field>
        <ErrorText error={error} />
        <button type="submit" disabled={busy || !token}>
          Set password
        </button>
      </form>
    </>
  );
}
