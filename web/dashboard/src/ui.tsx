import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';
import { readableFailure, readableProblem } from './problems';
import { formatDate as formatDay, formatTime } from '../../../shared/time/format';
import { focusPending, hrefOf, navigate, route } from './router';
import { timeZone } from './session';

/** The screen's h1: names the document and takes the focus after a navigation. */
export const Heading = ({ children, title }: { children: ComponentChildren; title: string }) => {
  const ref = useRef<HTMLHeadingElement>(null);
  // A layout effect: the focus moves as the heading appears, before anything else can take it.
  useLayoutEffect(() => {
    document.title = `${title} · Consent dashboard`;
    if (focusPending.value) {
      focusPending.value = false;
      ref.current?.focus();
    }
  }, [title]);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
};

/** An in-app link: a real link (new tab, copy address work) that navigates without a reload. */
export const Link = ({ to, children, current }: { to: string; children: ComponentChildren; current?: boolean }) => (
  <a
    href={hrefOf(to)}
    aria-current={current ? 'page' : undefined}
    onClick={(event) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(to);
    }}
  >
    {children}
  </a>
);

export const isCurrent = (to: string) => (to === '/' ? route.value === '/' : route.value === to || route.value.startsWith(`${to}/`));

export const messageOf = (error: unknown): string => (error instanceof ApiError ? readableFailure(error.code, error.message) : error instanceof Error ? error.message : 'Something went wrong.');

/** An error said where it happened, announced at once. */
export const ErrorText = ({ error, id }: { error: unknown; id?: string }) =>
  error ? (
    <p class="error" role="alert" id={id}>
      {messageOf(error)}
    </p>
  ) : null;

export const Loading = ({ what }: { what: string }) => (
  <p class="muted" role="status">
    Loading {what}…
  </p>
);

/** Loads data for a screen; `reload` runs it again. */
export const useData = <T,>(load: () => Promise<T>, deps: unknown[] = []) => {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, nonce]);
  return { ...state, reload: () => setNonce((value) => value + 1) };
};

/**
 * One action at a time (a save, a publish): `busy` while it runs, `error` when it failed (the form
 * keeps what was typed). With `staysBusy` a success leaves it busy: what acted goes with it (a
 * dialog closing, a navigation).
 */
export const useAction = ({ staysBusy = false }: { staysBusy?: boolean } = {}) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      if (!staysBusy) setBusy(false);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return { busy, error, run };
};

/** Copies a text and says so (in a live region) next to the button. */
export const CopyButton = ({ text, label }: { text: string; label: string }) => {
  const [said, setSaid] = useState('');
  return (
    <span class="copy">
      <button
        type="button"
        class="secondary"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setSaid('Copied.');
          } catch {
            setSaid('Copying is not allowed here: select the text and copy it.');
          }
        }}
      >
        {label}
      </button>
      <span role="status" class="muted">
        {said}
      </span>
    </span>
  );
};

/**
 * A modal dialog (the native <dialog>: focus moves in, stays in, Escape closes it); on close the
 * focus returns to what opened it.
 */
export const Dialog = ({ title, onClose, children, opener: given }: { title: string; onClose: () => void; children: ComponentChildren; opener?: HTMLElement | null }) => {
  const ref = useRef<HTMLDialogElement>(null);
  // Escape fires `cancel` now and `close` a task later, when the dialog may be gone and a new one
  // open (a quick Escape, Enter): only the first, while mounted, closes it.
  const done = useRef(false);
  const close = () => {
    if (done.current) return;
    done.current = true;
    onClose();
  };
  useEffect(() => {
    // What opened it: named by the caller when that control was busy (disabled) as the dialog opened.
    const opener = given ?? (document.activeElement as HTMLElement | null);
    const dialog = ref.current;
    // The browser returns focus on close to what was focused at showModal: make that the opener,
    // which lost focus to the body while it was disabled.
    if (given && document.activeElement !== given) given.focus({ preventScroll: true });
    dialog?.showModal();
    return () => {
      done.current = true;
      if (dialog?.open) dialog.close();
      opener?.focus();
      // Escape's native close restores focus a task later, to what was focused when the dialog
      // opened: the body, when the opener was disabled while busy. Focus that fell to the body
      // goes back to the opener; focus the user moved elsewhere stays.
      setTimeout(() => {
        if (opener?.isConnected && (document.activeElement === document.body || document.activeElement === null)) opener.focus();
      }, 0);
    };
  }, []);
  return (
    <dialog ref={ref} aria-labelledby="dialog-title" onClose={close} onCancel={close}>
      <h2 id="dialog-title">{title}</h2>
      {children}
    </dialog>
  );
};

/** A dialog form's buttons: its submit (disabled while busy) and Cancel. */
export const DialogActions = ({ submit, busy, onCancel }: { submit: string; busy: boolean; onCancel: () => void }) => (
  <div class="actions">
    <button type="submit" disabled={busy}>
      {submit}
    </button>
    <button type="button" class="secondary" onClick={onCancel}>
      Cancel
    </button>
  </div>
);

/**
 * Every time on every screen, through the service's one formatter (shared/time/format.ts): the
 * tenant's zone (India's by default), to the minute, the zone named; with UTC beside where the time
 * is evidence a DPO may read against logs (a filing, a proof).
 */
export const formatDateTime = (iso: string | null | undefined) => formatTime(iso, { timeZone: timeZone.value });
export const formatEvidenceTime = (iso: string | null | undefined) => formatTime(iso, { timeZone: timeZone.value, utc: true });
export const formatDate = (iso: string | null | undefined) => formatDay(iso, { timeZone: timeZone.value });
export const formatNumber = (value: number) => value.toLocaleString('en-IN');

/** The form-field messages of a refusal, by field name, in words for the DPO (problems.ts). */
export const fieldErrors = (error: unknown): Record<string, string> =>
  error instanceof ApiError ? Object.fromEntries(Object.entries(error.fields).map(([field, message]) => [field, readableProblem(message)])) : {};
