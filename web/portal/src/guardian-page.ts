import type { ConsentState, PrincipalStatus, VerificationMethod } from '../../../shared/consent/states';
import { guardianPageWords } from '../../../shared/words/children-words';
import { fillWords } from '../../../shared/words/fill';
import { callApi } from './api';
import { h } from './dom';
import { directionOf, languageTag } from './languages';
import { timeOf, type PageState } from './shell';

type WordKey = keyof typeof guardianPageWords;

/** GET /children/guardian/:token: what the parent or guardian decides on, and the page's words in the child's language. */
interface GuardianView {
  tenant: { name: string };
  principalStatus: Exclude<PrincipalStatus, 'ADULT'>;
  language: string;
  notice: { title: string; introText: string; contactEmail: string | null; rightsText: string | null; complaintText: string | null };
  purposes: { id: string; name: string; description: string; required: boolean; granted: boolean; exempt: boolean }[];
  methods: VerificationMethod[];
  expiresAt: string;
  words: { language: string; words: Partial<Record<WordKey, string>>; english: string[] };
}

interface Decision {
  consentState: ConsentState;
}

type View = { kind: 'loading' | 'gone' } | { kind: 'form'; guardian: GuardianView } | { kind: 'approved' | 'refused'; guardian: GuardianView };

/**
 * The page behind a parent's or guardian's link (`/portal/g/<token>`): the notice and the child's
 * choices in the language the child saw, what happens next, and approve (by one of the methods
 * offered, optionally switching purposes off) or refuse. Same rules as the other principal pages:
 * every word from the tenant's label sets, English marked where it stands in, lang and dir on the
 * root, focus on the heading after each change, the link never sent on as a referrer.
 */
export const guardianPage = async (token: string): Promise<void> => {
  const path = `/children/guardian/${encodeURIComponent(token)}`;
  const state: PageState & { view: View; method: VerificationMethod | null; off: Set<string>; error: string | null; busy: boolean } = {
    language: 'EN',
    languages: ['EN'],
    view: { kind: 'loading' },
    method: null,
    off: new Set(),
    error: null,
    busy: false,
  };
  const loaded: { words?: GuardianView['words'] } = {};

  /** A word as a node: in the page's language, or English marked as such. */
  const w = (key: WordKey, values: Record<string, string> = {}): Node => {
    const own = loaded.words?.words[key];
    const text = fillWords(own ?? guardianPageWords[key], values);
    const english = own === undefined || loaded.words!.english.includes(key);
    return english && state.language !== 'EN' ? h('span', { lang: 'en', dir: 'ltr' }, text) : document.createTextNode(text);
  };
  const tenantOf = (view: View) => ('guardian' in view ? view.guardian.tenant.name : '');

  const field = (id: string, key: WordKey, type: string, attributes: Record<string, string> = {}) =>
    h('div', {}, h('label', { for: id, class: 'block' }, w(key)), h('input', { id, name: id, type, required: true, ...attributes }));

  const methodFields = (): Node[] => {
    switch (state.method) {
      case 'SELF_DECLARED':
        return [
          field('name', 'guardian.name', 'text', { autocomplete: 'name', maxlength: '200' }),
          field('birthYear', 'guardian.birthYear', 'number', { inputmode: 'numeric', min: '1900', max: String(new Date().getUTCFullYear()), autocomplete: 'bday-year' }),
          h('div', { class: 'choice' }, h('input', { id: 'declaration', type: 'checkbox', required: true }), h('label', { for: 'declaration' }, w('guardian.declaration'))),
        ];
      case 'VIRTUAL_TOKEN':
        return [h('div', {}, h('label', { for: 'token', class: 'block' }, w('guardian.token')), h('textarea', { id: 'token', rows: '4', 'aria-describedby': 'token-hint', required: true }), h('p', { id: 'token-hint', class: 'hint' }, w('guardian.tokenHint')))];
      default:
        return [];
    }
  };

  const value = (id: string) => (document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null)?.value.trim() ?? '';

  const approve = async (guardian: GuardianView) => {
    if (state.busy || !state.method) return;
    const body: Record<string, unknown> = { method: state.method };
    if (state.off.size > 0) body.consentGiven = Object.fromEntries([...state.off].map((id) => [id, false]));
    if (guardian.principalStatus === 'GUARDED') body.guardianship = { authority: value('authority'), orderReference: value('orderReference') };
    if (state.method === 'SELF_DECLARED') Object.assign(body, { name: value('name'), birthYear: Number(value('birthYear')), declaration: (document.getElementById('declaration') as HTMLInputElement | null)?.checked === true });
    if (state.method === 'VIRTUAL_TOKEN') body.token = value('token');
    await decide(guardian, 'approve', body);
  };

  const decide = async (guardian: GuardianView, action: 'approve' | 'refuse', body: Record<string, unknown>) => {
    state.busy = true;
    state.error = null;
    render('keep');
    const answer = await callApi<Decision>('POST', `${path}/${action}`, body);
    state.busy = false;
    if (answer.ok) return show({ kind: action === 'approve' ? 'approved' : 'refused', guardian });
    if (answer.status === 404) return show({ kind: 'gone' });
    state.error = answer.code;
    render('keep');
    document.getElementById('form-error')?.focus();
  };

  const form = (guardian: GuardianView): Node[] => {
    const choices = h(
      'ul',
      { class: 'purposes' },
      ...guardian.purposes.map((purpose) => {
        const keep = purpose.granted && !purpose.exempt ? h('div', { class: 'choice' }, (() => {
          const input = h('input', { type: 'checkbox', id: `keep-${purpose.id}`, checked: !state.off.has(purpose.id) });
          input.addEventListener('change', () => (input.checked ? state.off.delete(purpose.id) : state.off.add(purpose.id)));
          return input;
        })(), h('label', { for: `keep-${purpose.id}` }, w('guardian.keep'))) : null;
        const badge = purpose.exempt ? w('guardian.exempt') : w(purpose.granted ? 'guardian.chosen' : 'guardian.notChosen');
        return h('li', {}, h('h3', { dir: 'auto' }, purpose.name, ' ', h('span', { class: `badge ${purpose.granted ? 'granted' : 'absent'}` }, badge)), h('p', { class: 'muted', dir: 'auto' }, purpose.description), keep);
      }),
    );
    const radios = guardian.methods.map((method) => {
      const input = h('input', { type: 'radio', name: 'method', id: `method-${method}`, value: method, checked: state.method === method });
      input.addEventListener('change', () => {
        state.method = method;
        render('keep');
        document.getElementById(`method-${method}`)?.focus();
      });
      return h('div', { class: 'choice' }, input, h('label', { for: `method-${method}` }, w(`guardian.method.${method}`, { tenant: guardian.tenant.name })));
    });
    const guardianship =
      guardian.principalStatus === 'GUARDED'
        ? h('fieldset', {}, h('legend', {}, w('guardian.guardianshipHeading')), field('authority', 'guardian.authority', 'text', { maxlength: '200' }), field('orderReference', 'guardian.orderReference', 'text', { maxlength: '200' }))
        : null;
    const approveForm = h(
      'form',
      { class: 'card', novalidate: true },
      h('fieldset', {}, h('legend', {}, w('guardian.methodLegend')), ...radios),
      ...methodFields(),
      guardianship,
      state.error ? h('p', { id: 'form-error', class: 'error', role: 'alert', tabindex: '-1' }, w('guardian.failed', { reason: state.error })) : null,
      h('button', { type: 'submit', 'aria-disabled': state.busy || !state.method ? 'true' : undefined }, w(state.busy ? 'guardian.working' : 'guardian.approve')),
    );
    approveForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void approve(guardian);
    });
    const reason = h('textarea', { id: 'reason', maxlength: '500' });
    const refuseForm = h('form', { class: 'card', novalidate: true }, h('label', { for: 'reason', class: 'block' }, w('guardian.reason')), reason, h('button', { type: 'submit', class: 'secondary' }, w('guardian.refuse')));
    refuseForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void decide(guardian, 'refuse', reason.value.trim() ? { reason: reason.value.trim() } : {});
    });
    return [
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'notice-heading' },
        h('p', {}, w(guardian.principalStatus === 'GUARDED' ? 'guardian.introGuarded' : 'guardian.intro', { tenant: guardian.tenant.name })),
        h('h2', { id: 'notice-heading', dir: 'auto' }, guardian.notice.title),
        h('p', { dir: 'auto' }, guardian.notice.introText),
        h('h2', {}, w('guardian.choicesHeading')),
        choices,
        h('h2', {}, w('guardian.nextHeading')),
        h('p', {}, w('guardian.next', { tenant: guardian.tenant.name, expiresAt: timeOf(state, guardian.expiresAt).textContent ?? guardian.expiresAt })),
        guardian.notice.contactEmail ? h('p', {}, h('a', { href: `mailto:${guardian.notice.contactEmail}` }, guardian.notice.contactEmail)) : null,
      ),
      approveForm,
      refuseForm,
    ];
  };

  const show = (view: View) => {
    state.view = view;
    render('heading');
  };

  const render = (focus: 'heading' | 'keep') => {
    const view = state.view;
    const root = document.documentElement;
    root.lang = languageTag(state.language);
    root.dir = directionOf(state.language);
    const guarded = 'guardian' in view && view.guardian.principalStatus === 'GUARDED';
    const titleKey: WordKey =
      view.kind === 'approved' ? 'guardian.approvedHeading' : view.kind === 'refused' ? 'guardian.refusedHeading' : view.kind === 'gone' ? 'guardian.goneHeading' : guarded ? 'guardian.pageTitleGuarded' : 'guardian.pageTitle';
    const heading = h('h1', { tabindex: '-1' }, w(titleKey));
    document.title = heading.textContent ?? '';
    const body: Node[] =
      view.kind === 'form'
        ? form(view.guardian)
        : view.kind === 'approved'
          ? [h('p', { class: 'card' }, w('guardian.approvedText', { tenant: tenantOf(view) }))]
          : view.kind === 'refused'
            ? [h('p', { class: 'card' }, w('guardian.refusedText', { tenant: tenantOf(view) }))]
            : view.kind === 'gone'
              ? [h('p', { class: 'card' }, w('guardian.goneTextPlain'))]
              : [h('p', { id: 'loading' }, w('guardian.working'))];
    document.getElementById('app')?.replaceChildren(h('div', { class: 'topbar' }, heading), ...body);
    if (focus === 'heading') heading.focus();
  };

  render('keep');
  const answer = await callApi<GuardianView>('GET', path);
  if (!answer.ok) return show({ kind: 'gone' });
  loaded.words = answer.data.words;
  state.language = answer.data.words.language;
  state.languages = [state.language];
  show({ kind: 'form', guardian: answer.data });
};
