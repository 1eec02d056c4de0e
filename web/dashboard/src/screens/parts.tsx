import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Dialog, ErrorText, useAction } from '../ui';

/** What a field's control spreads onto itself: its id and what describes it. */
export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/**
 * A labelled control with its hint and, after a failed save, the API's message for that field
 * beside it (a VALIDATION_ERROR's `fields`), tied to the control by aria-describedby.
 */
export const Field = ({ id, label, hint, problem, children }: { id: string; label: string; hint?: string; problem?: string; children: (control: ControlProps) => ComponentChildren }) => {
  const describedBy = [problem ? `${id}-problem` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({ id, ...(problem ? { 'aria-invalid': true } : {}), ...(describedBy ? { 'aria-describedby': describedBy } : {}) })}
      {problem ? (
        <span class="hint error" id={`${id}-problem`}>
          {problem}
        </span>
      ) : null}
      {hint ? (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
    </div>
  );
};

/** Radio buttons for one setting, each with its hint (inside the caller's fieldset and legend). */
export const Choices = <T extends string>({ name, choices, chosen, onChoose }: { name: string; choices: readonly { value: T; label: string; hint: string }[]; chosen: T; onChoose: (value: T) => void }) => (
  <>
    {choices.map(({ value, label, hint }) => (
      <div key={value}>
        <label class="check">
          <input type="radio" name={name} checked={chosen === value} aria-describedby={`${name}-${value}-hint`} onChange={() => onChoose(value)} /> {label}
        </label>
        <p class="hint" id={`${name}-${value}-hint`}>
          {hint}
        </p>
      </div>
    ))}
  </>
);

/**
 * A status line saying what just happened (saved, deleted, invited). It takes the focus, since
 * the control that acted may be gone with its row or card.
 */
export const useSaid = () => {
  const [said, setSaid] = useState<{ text: string }>();
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (said) ref.current?.focus();
  }, [said]);
  return {
    say: (text: string) => setSaid({ text }),
    line: (
      <p role="status" ref={ref} tabIndex={-1}>
        {said?.text}
      </p>
    ),
  };
};

/** Asks before an action that cannot be undone; a refusal shows the API's message and keeps the dialog open. */
export const ConfirmDialog = ({
  title,
  confirm,
  children,
  act,
  onDone,
  onClose,
}: {
  title: string;
  confirm: string;
  children: ComponentChildren;
  act: () => Promise<unknown>;
  onDone: () => void;
  onClose: () => void;
}) => {
  const { busy, error, run } = useAction({ staysBusy: true });
  return (
    <Dialog title={title} onClose={onClose}>
      {children}
      <ErrorText error={error} />
      <div class="actions">
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() =>
            run(async () => {
              await act();
              onDone();
            })
          }
        >
          {confirm}
        </button>
        <button type="button" class="secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
};

/**
 * Paging by cursor: the cursors of the pages before this one (the first page has none), and the
 * Previous and Next buttons over them. A list's query reads `cursor`.
 */
export const usePager = () => {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return {
    cursor: cursors[cursors.length - 1],
    restart: () => setCursors([undefined]),
    // A render function, not a component: a component made anew each render would remount and lose the focus.
    pager: (nextCursor: string | null) => (
      <div class="pager">
        <button type="button" class="secondary" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>
        <button type="button" class="secondary" disabled={!nextCursor} onClick={() => setCursors([...cursors, nextCursor ?? undefined])}>
          Next page
        </button>
      </div>
    ),
  };
};
