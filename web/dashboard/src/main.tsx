import './styles.css';
import { render, type ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { resume, session, signIn, signOut, signedOutReason } from './session';
import { focusPending, route } from './router';
import { ErrorText, Heading, isCurrent, Link, Loading } from './ui';

/** Every screen is its own chunk, loaded when first opened. */
type ScreenModule = { default: ComponentType<{ params: Record<string, string> }> };
const screens: { pattern: RegExp; names: string[]; load: () => Promise<ScreenModule> }[] = [
  { pattern: /^\/$/, names: [], load: () => import('./screens/overview') },
  { pattern: /^\/records$/, names: [], load: () => import('./screens/records') },
  { pattern: /^\/records\/([^/]+)$/, names: ['id'], load: () => import('./screens/record') },
  { pattern: /^\/withdrawals$/, names: [], load: () => import('./screens/withdrawals') },
  { pattern: /^\/breaches$/, names: [], load: () => import('./screens/breaches') },
  { pattern: /^\/breaches\/([^/]+)$/, names: ['id'], load: () => import('./screens/breach') },
  { pattern: /^\/api-keys$/, names: [], load: () => import('./screens/api-keys') },
  { pattern: /^\/settings$/, names: [], load: () => import('./screens/consent-settings') },
  { pattern: /^\/webhooks$/, names: [], load: () => import('./screens/webhooks') },
  { pattern: /^\/team$/, names: [], load: () => import('./screens/team') },
  { pattern: /^\/set-password$/, names: [], load: () => import('./screens/set-password') },
  { pattern: /^\/notices$/, names: [], load: () => import('./screens/notices') },
  { pattern: /^\/notices\/([^/]+)$/, names: ['id'], load: () => import('./screens/notice') },
  { pattern: /^\/notices\/([^/]+)\/versions$/, names: ['id'], load: () => import('./screens/notice-versions') },
  { pattern: /^\/notices\/([^/]+)\/translations$/, names: ['id'], load: () => import('./screens/notice-translations') },
  { pattern: /^\/cookie-consent$/, names: [], load: () => import('./screens/cookie-consent') },
  { pattern: /^\/cookie-consent\/scans\/([^/]+)$/, names: ['scanRunId'], load: () => import('./screens/cookie-scan-report') },
  { pattern: /^\/rights$/, names: [], load: () => import('./screens/rights') },
  { pattern: /^\/rights\/([^/]+)$/, names: ['requestId'], load: () => import('./screens/rights-request') },
  { pattern: /^\/data-map$/, names: [], load: () => import('./screens/data-map') },
  { pattern: /^\/words$/, names: [], load: () => import('./screens/words') },
  { pattern: /^\/children$/, names: [], load: () => import('./screens/children') },
  { pattern: /^\/retention$/, names: [], load: () => import('./screens/retention') },
];

/** Routes rendered without a session (and without the shell). */
const publicRoutes = ['/set-password'];

export const navigation = [
  { to: '/', label: 'Overview' },
  { to: '/notices', label: 'Notices' },
  { to: '/records', label: 'Consent records' },
  { to: '/withdrawals', label: 'Withdrawals' },
  { to: '/rights', label: 'Rights requests' },
  { to: '/data-map', label: 'Data map' },
  { to: '/breaches', label: 'Breaches' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/api-keys', label: 'API keys' },
  { to: '/settings', label: 'Consent settings' },
  { to: '/children', label: 'Children' },
  { to: '/retention', label: 'Retention' },
  { to: '/cookie-consent', label: 'Cookie consent' },
  { to: '/words', label: 'Words people see' },
  { to: '/team', label: 'Team' },
];

const NotFound = () => (
  <>
    <Heading title="Page not found">Page not found</Heading>
    <p>
      There is no such page in the dashboard. <Link to="/">Go to the overview</Link>.
    </p>
  </>
);

const Screen = () => {
  const path = route.value;
  const match = screens.map((screen) => ({ screen, groups: screen.pattern.exec(path) })).find(({ groups }) => groups);
  const [loaded, setLoaded] = useState<{ path: string; module?: ScreenModule; error?: unknown }>();
  useEffect(() => {
    if (!match) return;
    let live = true;
    match.screen.load().then(
      (module) => live && setLoaded({ path, module }),
      (error: unknown) => live && setLoaded({ path, error }),
    );
    return () => {
      live = false;
    };
  }, [path]);
  if (!match) return <NotFound />;
  if (loaded?.path !== path) return <Loading what="the page" />;
  if (loaded.error || !loaded.module) return <ErrorText error={new Error('This page could not be loaded. Reload to try again.')} />;
  const params = Object.fromEntries(match.screen.names.map((name, index) => [name, decodeURIComponent(match.groups![index + 1]!)]));
  const Component = loaded.module.default;
  return <Component key={path} params={params} />;
};

const Shell = () => {
  const current = session.value!;
  return (
    <>
      <a class="skip" href="#main">
        Skip to main content
      </a>
      <header class="top">
        <p class="brand">Consent dashboard</p>
        <p class="who">
          Signed in as <strong>{current.role.replace('_', ' ').toLowerCase()}</strong>
        </p>
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <div class="layout">
        <nav aria-label="Main">
          <ul>
            {navigation.map((item) => (
              <li key={item.to}>
                <Link to={item.to} current={isCurrent(item.to)}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <Screen />
        </main>
      </div>
    </>
  );
};

const SignIn = () => {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = 'Sign in · Consent dashboard';
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(email.trim(), password);
      focusPending.value = true;
    } catch (failure) {
      // The API's own message (a wrong password and an unknown email read the same); the fields keep what was typed.
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>Sign in</h1>
      <p class="muted">Consent dashboard for your organisation's data protection officer and team.</p>
      {signedOutReason.value && !error ? <p class="notice" role="status">{signedOutReason.value}</p> : null}
      <form onSubmit={submit} aria-describedby={error ? 'sign-in-error' : undefined}>
        <div class="field">
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autoComplete="username" required value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
          />
        </div>
        <ErrorText error={error} id="sign-in-error" />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
};

const App = () => {
  const [resuming, setResuming] = useState(true);
  useEffect(() => {
    void resume().finally(() => setResuming(false));
  }, []);
  // Pages opened from a mail (a set-password link) work signed out, outside the shell.
  if (publicRoutes.includes(route.value)) {
    return (
      <main id="main" class="sign-in">
        <Screen />
      </main>
    );
  }
  if (resuming) return <Loading what="your session" />;
  return session.value ? <Shell /> : <SignIn />;
};

const root = document.getElementById('app')!;
root.textContent = '';
render(<App />, root);
