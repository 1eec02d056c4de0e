import { callApi } from './api';
import { h } from './dom';
import { chromeLanguages, type LabelKey } from './labels';
import { initialLanguage } from './languages';
import type { RightsMeans } from './rights-api';
import { emptyRequestDraft, rightsSection } from './rights-form';
import { mount, t, type PageState } from './shell';

/** A deliberately loose check: the server validates; this only catches an obvious typo early. */
const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/**
 * The tenant's public page (`/portal/t/<slug>`): the principal asks for a withdrawal link by email,
 * and, under "Your rights", reads how to exercise their rights and makes a request. Either answer
 * is the same whether or not the address has consent on record.
 */
export const publicPage = (slug: string): void => {
  const state: PageState & { sent: { email: string; key: 'sentText' | 'requestSentText' } | null; means: RightsMeans | null } = {
    language: initialLanguage(chromeLanguages, navigator.languages),
    languages: chromeLanguages,
    sent: null,
    means: null,
  };
  const draft = { email: '', error: null as LabelKey | null, busy: false };
  const request = emptyRequestDraft();

  const render = (focus: 'heading' | 'language' | 'keep') => mount(state, state.sent === null ? formView() : sentView(state.sent), { onLanguage, focus });
  const sent = (email: string, key: 'sentText' | 'requestSentText') => {
    state.sent = { email, key };
    render('heading');
  };
  const onLanguage = (code: string) => {
    state.language = code;
    render('language');
  };
  const fail = (key: LabelKey) => {
    draft.error = key;
    draft.busy = false;
    render('keep');
    document.getElementById('email')?.focus();
  };

  const submit = async () => {
    if (draft.busy) return;
    const email = draft.email.trim();
    if (!looksLikeEmail(email)) return fail('emailInvalid');
    draft.error = null;
    draft.busy = true;
    render('keep');
    const answer = await callApi('POST', '/consent/portal-link', { tenantSlug: slug, email });
    if (answer.ok) {
      draft.busy = false;
      return sent(email, 'sentText');
    }
    if (answer.code === 'RATE_LIMIT') return fail('rateLimited');
    if (answer.code === 'NOT_FOUND') return fail('unknownOrganisation');
    if (answer.code === 'VALIDATION_ERROR') return fail('emailInvalid');
    return fail('failed');
  };

  const formView = () => {
    const input = h('input', {
      type: 'email',
      id: 'email',
      name: 'email',
      autocomplete: 'email',
      required: true,
      'aria-invalid': draft.error ? 'true' : undefined,
      'aria-describedby': draft.error ? 'email-error' : undefined,
    });
    input.value = draft.email;
    input.addEventListener('input', () => (draft.email = input.value));
    const form = h(
      'form',
      { class: 'card', novalidate: true },
      h('p', {}, t(state, 'publicIntro')),
      h('label', { for: 'email', class: 'block' }, t(state, 'email')),
      input,
      draft.error ? h('p', { id: 'email-error', class: 'error', role: 'alert' }, t(state, draft.error)) : null,
      h('p', {}, h('button', { type: 'submit', 'aria-disabled': draft.busy ? 'true' : undefined }, t(state, draft.busy ? 'sending' : 'sendLink'))),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void submit();
    });
    const rights = state.means ? rightsSection(state, state.means, request, () => render('keep'), (email) => sent(email, 'requestSentText')) : null;
    return { title: t(state, 'publicHeading'), body: [form, rights].filter((part): part is HTMLElement => part !== null) };
  };

  const sentView = ({ email, key }: { email: string; key: 'sentText' | 'requestSentText' }) => ({
    title: t(state, 'sentHeading'),
    body: [h('p', { class: 'card', id: 'sent' }, t(state, key, { email }))],
  });

  render('keep');
  // The Rule 14 publication and the request form, where the organisation's plan has them.
  void callApi<RightsMeans>('GET', `/rights/means/${encodeURIComponent(slug)}`).then((answer) => {
    if (!answer.ok || state.sent) return;
    state.means = answer.data;
    // The redraw replaces the form: whatever had the focus (the email box being typed in) keeps it.
    const focused = document.activeElement?.id;
    render('keep');
    if (focused) document.getElementById(focused)?.focus();
  });
};
