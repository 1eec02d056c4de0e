import { callApi } from './api';
import { h } from './dom';
import type { LabelKey } from './labels';
import type { RightsMeans, RequestType } from './rights-api';
import { t, type PageState } from './shell';

/** What the principal typed in the request form; kept across re-renders (a language switch redraws it). */
export interface RequestDraft {
  type: RequestType;
  email: string;
  details: string;
  nominee: { name: string; email: string; relationship: string };
  error: LabelKey | null;
  busy: boolean;
}

export const emptyRequestDraft = (): RequestDraft => ({ type: 'ACCESS', email: '', details: '', nominee: { name: '', email: '', relationship: '' }, error: null, busy: false });

const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** A labelled text control bound to one field of the draft. */
const field = (state: PageState, id: string, key: LabelKey, value: string, set: (value: string) => void, options: { type?: string; textarea?: boolean; hint?: LabelKey; autocomplete?: string; invalid?: boolean } = {}) => {
  const control = options.textarea
    ? h('textarea', { id, name: id, maxlength: '5000', 'aria-describedby': options.hint ? `${id}-hint` : undefined, 'aria-invalid': options.invalid ? 'true' : undefined })
    : h('input', { id, name: id, type: options.type ?? 'text', autocomplete: options.autocomplete, 'aria-describedby': options.hint ? `${id}-hint` : undefined, 'aria-invalid': options.invalid ? 'true' : undefined });
  control.value = value;
  control.addEventListener('input', () => set(control.value));
  return [h('label', { for: id, class: 'block' }, t(state, key)), control, options.hint ? h('p', { id: `${id}-hint`, class: 'hint' }, t(state, options.hint)) : null];
};

/**
 * "Your rights" on the tenant's page: the Rule 14 publication (the rights offered, what identifies
 * a principal, both response periods, the DPO) and the request form. Sending mails a confirmation
 * link; the answer is the same for every address (`onSent`).
 */
export const rightsSection = (state: PageState, means: RightsMeans, draft: RequestDraft, redraw: () => void, onSent: (email: string) => void): HTMLElement => {
  const tenant = means.tenant.name;
  const fail = (key: LabelKey, focus: string) => {
    draft.error = key;
    draft.busy = false;
    redraw();
    document.getElementById(focus)?.focus();
  };
  const submit = async () => {
    if (draft.busy) return;
    const nomination = draft.type === 'NOMINATION';
    if (!looksLikeEmail(draft.email.trim())) return fail('portal.emailInvalid', 'request-email');
    if (!draft.details.trim()) return fail('rights.detailsMissing', 'request-details');
    if (nomination && (!draft.nominee.name.trim() || !looksLikeEmail(draft.nominee.email.trim()) || !draft.nominee.relationship.trim())) return fail('rights.nomineeMissing', 'nominee-name');
    draft.error = null;
    draft.busy = true;
    redraw();
    const body = {
      tenantSlug: means.tenant.slug,
      type: draft.type,
      email: draft.email.trim(),
      details: draft.details.trim(),
      language: state.language,
      ...(nomination ? { nominee: { name: draft.nominee.name.trim(), email: draft.nominee.email.trim(), relationship: draft.nominee.relationship.trim() } } : {}),
    };
    const answer = await callApi('POST', '/rights/requests/public', body);
    draft.busy = false;
    if (answer.ok) return onSent(body.email);
    if (answer.code === 'RATE_LIMIT') return fail('portal.rateLimited', 'request-error');
    if (answer.code === 'VALIDATION_ERROR') return fail('portal.emailInvalid', 'request-email');
    return fail('portal.failed', 'request-error');
  };

  const select = h('select', { id: 'request-type', name: 'type' }, ...means.rights.map((type) => h('option', { value: type, selected: type === draft.type }, t(state, `rights.typeName_${type}`))));
  select.addEventListener('change', () => {
    draft.type = select.value as RequestType;
    redraw();
    document.getElementById('request-type')?.focus();
  });
  const nominee =
    draft.type === 'NOMINATION'
      ? h(
          'fieldset',
          {},
          h('legend', {}, t(state, 'rights.nomineeLegend')),
          ...field(state, 'nominee-name', 'rights.nomineeName', draft.nominee.name, (value) => (draft.nominee.name = value), { autocomplete: 'off' }),
          ...field(state, 'nominee-email', 'rights.nomineeEmail', draft.nominee.email, (value) => (draft.nominee.email = value), { type: 'email', autocomplete: 'off' }),
          ...field(state, 'nominee-relationship', 'rights.nomineeRelationship', draft.nominee.relationship, (value) => (draft.nominee.relationship = value), { autocomplete: 'off' }),
        )
      : null;
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'request-heading' },
    h('h3', { id: 'request-heading' }, t(state, 'rights.requestFormHeading')),
    h('label', { for: 'request-type', class: 'block' }, t(state, 'rights.requestType')),
    select,
    ...field(state, 'request-email', 'portal.email', draft.email, (value) => (draft.email = value), { type: 'email', autocomplete: 'email', hint: 'rights.requestEmailHint', invalid: draft.error === 'portal.emailInvalid' }),
    ...field(state, 'request-details', 'rights.requestDetails', draft.details, (value) => (draft.details = value), { textarea: true, hint: 'rights.requestDetailsHint', invalid: draft.error === 'rights.detailsMissing' }),
    nominee,
    draft.error ? h('p', { id: 'request-error', class: 'error', role: 'alert', tabindex: '-1' }, t(state, draft.error)) : null,
    h('p', {}, h('button', { type: 'submit', 'aria-disabled': draft.busy ? 'true' : undefined }, t(state, draft.busy ? 'portal.sending' : 'rights.sendRequest'))),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'rights-heading' },
    h('h2', { id: 'rights-heading' }, t(state, 'rights.rightsHeading')),
    h('p', {}, t(state, 'rights.rightsIntro', { tenant })),
    h('ul', { class: 'rights' }, ...means.rights.map((type) => h('li', {}, h('strong', {}, t(state, `rights.typeName_${type}`)), ': ', t(state, `rights.typeHint_${type}`)))),
    h('p', {}, t(state, 'rights.identifiersNeeded', { tenant, identifiers: means.identifiersRequired.join(', ') })),
    h('p', {}, t(state, 'rights.periods', { requestDays: means.requestResponseDays, grievanceDays: means.grievanceResponseDays })),
    means.dpoContact ? h('p', {}, t(state, 'portal.contact'), ' ', h('a', { href: `mailto:${means.dpoContact}` }, means.dpoContact)) : null,
    form,
  );
};
