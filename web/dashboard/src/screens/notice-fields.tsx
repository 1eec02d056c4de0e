import type { ComponentChildren } from 'preact';

/**
 * Form fields that show the API's own message beside them. A VALIDATION_ERROR names fields by
 * their path (`title`, `purposeConfig.0.purposeId`, `dataCategories.2`): a field shows every
 * message at or below its name, and whatever no field claims is listed under the form.
 */
export const messageAt = (fields: Record<string, string>, name: string): string | undefined => {
  const messages = Object.entries(fields)
    .filter(([key]) => key === name || key.startsWith(`${name}.`))
    .map(([key, message]) => (key === name ? message : `${key}: ${message}`));
  return messages.length > 0 ? messages.join('; ') : undefined;
};

export const FieldMessage = ({ id, message }: { id: string; message: string | undefined }) =>
  message ? (
    <span class="field-error" id={id}>
      {message}
    </span>
  ) : null;

interface TextFieldProps {
  id: string;
  /** The API's name for the field (how its messages are keyed). */
  name: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  fields: Record<string, string>;
  multiline?: boolean;
  type?: 'text' | 'email' | 'url';
  hint?: ComponentChildren;
  lang?: string;
  readOnly?: boolean;
}

export const TextField = ({ id, name, label, value, onInput, fields, multiline, type = 'text', hint, lang, readOnly }: TextFieldProps) => {
  const message = messageAt(fields, name);
  const described = [hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    value,
    lang,
    readOnly,
    'aria-invalid': message ? true : undefined,
    'aria-describedby': described,
    onInput: (event: Event) => onInput((event.currentTarget as HTMLInputElement).value),
  };
  // (The cast: preact types each input type as its own member; these three take the same attributes.)
  return (
    <div class={`field${message ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {hint ? (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {multiline ? <textarea rows={3} class="prose" {...common} /> : <input type={type as 'text'} class="wide-text" {...common} />}
      <FieldMessage id={`${id}-error`} message={message} />
    </div>
  );
};

/** The messages no field on the form claims (so none is ever hidden). */
export const OtherMessages = ({ fields, shown }: { fields: Record<string, string>; shown: readonly string[] }) => {
  const rest = Object.entries(fields).filter(([key]) => !shown.some((name) => key === name || key.startsWith(`${name}.`)));
  return rest.length > 0 ? (
    <ul class="field-error">
      {rest.map(([key, message]) => (
        <li key={key}>
          {key}: {message}
        </li>
      ))}
    </ul>
  ) : null;
};
