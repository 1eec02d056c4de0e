import { callApi } from './api';
import { h } from './dom';
import type { LabelKey } from './labels';
import { wordsOf } from './tenant-words';
import { askedLanguages, initialLanguage } from './languages';
import type { RightsMeans } from './rights-api';
import { emptyRequestDraft, rightsSection } from './rights-form';
import { loadWords, mount, redraw, t, type PageState } from './shell';

/** A deliberately loose check: the server validates; this only catches an obvious typo early. */
const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/**
 * The tenant's public page (`/portal/t/<slug>`): the principal asks for a withdrawal link by email,
 * and, under "Your rights", reads how to exercise their rights and makes a request. Either answer
 * is the same whether or not the address has consent on record.
 */
export const publicPage = (slug: string): void => {
  type Sent = { email: string; key: 'portal.sentText' | 'rights.requestSentText' };
  // English until the tenant's words say which languages it shows.
  const state: PageState & { loading: boolean; sent: Sent | null; means: RightsMeans | null } = { language: 'EN', languages: ['EN'], loading: true, sent: null, means: null };
  const wordsIn = wordsOf(slug);
  const draft = { email: '', error: null as LabelKey | null, busy: false };
  const request = emptyRequestDraft();

  const render = (focus: 'heading' | 'language' | 'keep') =>
    mount(state, state.loading ? loadingView() : state.sent === null ? formView() : sentView(state.sent), { onLanguage, focus });
  const sent = (email: string, key: Sent['key']) => {
    state.sent = { email, key };
    render('heading');
  };
  const onLanguage = async (code: string) => {
    state.language = code;
    render('language');
    if (await loadWords(state, wordsIn)) redraw(render);
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
    if (!looksLikeEmail(email)) return fail('portal.emailInvalid');
    draft.error = null;
    draft.busy = true;
    render('keep');
    const answer = await callApi('POST', '/consent/portal-link', { tenantSlug: slug, email });
    if (answer.ok) {
      draft.busy = false;
      return sent(email, 'portal.sentText');
    }
    if (answer.code === 'RATE_LIMIT') return fail('portal.rateLimited');
    if (answer.code === 'NOT_FOUND') return fail('portal.unknownOrganisation');
    if (answer.code === 'VALIDATION_ERROR') return fail('portal.emailInvalid');
    return fail('portal.failed');
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
      h('p', {}, t(state, 'portal.publicIntro')),
      h('label', { for: 'email', class: 'block' }, t(state, 'portal.email')),
      input,
      draft.error ? h('p', { id: 'email-error', class: 'error', role: 'alert' }, t(state, draft.error)) : null,
      h('p', {}, h('button', { type: 'submit', 'aria-disabled': draft.busy ? 'true' : undefined }, t(state, draft.busy ? 'portal.sending' : 'portal.sendLink'))),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void submit();
    });
    const rights = state.means ? rightsSection(state, state.means, request, () => render('keep'), (email) => sent(email, 'rights.requestSentText')) : null;
    return { title: t(state, 'portal.publicHeading'), body: [form, rights].filter((part): part is HTMLElement => part !== null) };
  };

  const loadingView = () => ({ title: t(state, 'portal.publicHeading'), body: [h('p', { id: 'loading' }, t(state, 'portal.loading'))] });

  const sentView = ({ email, key }: Sent) => ({
    title: t(state, 'portal.sentHeading'),
    body: [h('p', { class: 'card', id: 'sent' }, t(state, key, { email }))],
  });

  render('keep');
  // The languages the tenant shows words in, the browser's choice among them, and their words.
  void (async () => {
    state.languages = (await wordsIn())?.languages ?? ['EN'];
    state.language = initialLanguage(state.languages, askedLanguages(location.search, navigator.languages));
    await loadWords(state, wordsIn);
    state.loading = false;
    render('keep');
  })();
  // The Rule 14 publication and the request form, where the organisation's plan has them.
  void callApi<RightsMeans>('GET', `/rights/means/${encodeURIComponent(slug)}`).then((answer) => {
    if (!answer.ok || state.sent) return;
    state.means = answer.data;
    // The redraw replaces the form: whatever had the focus (the email box being typed in) keeps it.
    redraw(render);
  });
};
