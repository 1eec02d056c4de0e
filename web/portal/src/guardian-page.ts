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

/** The page's fields a message can belong to (the method's fieldset is `method`). */
type FieldId = 'method' | 'name' | 'birthYear' | 'declaration' | 'token' | 'authority' | 'orderReference';

/** What the person is told when an approval fails: messages for the fields they can correct, or one for the whole form. */
interface Failure {
  fields: Partial<Record<FieldId, WordKey>>;
  general: WordKey | null;
}

/**
 * The API's fields (its messages are for integrators) as the page's fields with words written for
 * a person. A field the person cannot correct here (a stale purpose list, say) is the general message.
 */
const fieldWords = new Map<string, [FieldId, WordKey]>([
  ['method', ['method', 'guardian.error.method']],
  ['name', ['name', 'guardian.error.name']],
  ['birthYear', ['birthYear', 'guardian.error.birthYear']],
  ['declaration', ['declaration', 'guardian.error.declaration']],
  ['token', ['token', 'guardian.error.token']],
  ['guardianship', ['authority', 'guardian.error.guardianship']],
  ['guardianship.authority', ['authority', 'guardian.error.guardianship']],
  ['guardianship.orderReference', ['orderReference', 'guardian.error.guardianship']],
]);

const failureOf = (status: number, code: string, fields: Record<string, string> = {}): Failure => {
  const failure: Failure = { fields: {}, general: null };
  for (const name of Object.keys(fields)) {
    const known = fieldWords.get(name);
    if (known) failure.fields[known[0]] = known[1];
    else failure.general = 'guardian.error.other';
  }
  if (Object.keys(failure.fields).length === 0 && !failure.general) failure.general = status === 429 || code === 'RATE_LIMIT' ? 'guardian.error.busy' : 'guardian.error.other';
  return failure;
};

/**
 * The page behind a parent's or guardian's link (`/portal/g/<token>`): the notice and the child's
 * choices in the language the child saw, what happens next, and approve (by one of the methods
 * offered, optionally switching purposes off) or refuse. Same rules as the other principal pages:
 * every word from the tenant's label sets, English marked where it stands in, lang and dir on the
 * root, focus on the heading after each change, the link never sent on as a referrer.
 */
export const guardianPage = async (token: string): Promise<void> => {
  const path = `/children/guardian/${encodeURIComponent(token)}`;
  const state: PageState & { view: View; method: VerificationMethod | null; off: Set<string>; failure: Failure | null; busy: boolean; typed: Partial<Record<FieldId, string>>; declared: boolean } = {
    language: 'EN',
    languages: ['EN'],
    view: { kind: 'loading' },
    method: null,
    off: new Set(),
    failure: null,
    busy: false,
    // What the person typed, kept across redraws (a failed approval redraws the form).
    typed: {},
    declared: false,
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

  /** A field's message, tied to its control (aria-describedby), when the last approval failed on it. */
  const problem = (id: FieldId) => {
    const key = state.failure?.fields[id];
    return key ? h('p', { id: `${id}-error`, class: 'error' }, w(key)) : null;
  };
  const invalid = (id: FieldId, hint?: string) => {
    const wrong = state.failure?.fields[id] !== undefined;
    const describedBy = [hint, wrong ? `${id}-error` : undefined].filter(Boolean).join(' ');
    return { 'aria-invalid': wrong ? 'true' : undefined, 'aria-describedby': describedBy || undefined };
  };
  const kept = <E extends HTMLInputElement | HTMLTextAreaElement>(id: FieldId, control: E): E => {
    control.value = state.typed[id] ?? '';
    control.addEventListener('input', () => (state.typed[id] = control.value));
    return control;
  };

  const field = (id: FieldId, key: WordKey, type: string, attributes: Record<string, string> = {}) =>
    h('div', {}, h('label', { for: id, class: 'block' }, w(key)), kept(id, h('input', { id, name: id, type, required: true, ...attributes, ...invalid(id) })), problem(id));

  const methodFields = (): Node[] => {
    switch (state.method) {
      case 'SELF_DECLARED': {
        const declaration = h('input', { id: 'declaration', type: 'checkbox', required: true, checked: state.declared, ...invalid('declaration') });
        declaration.addEventListener('change', () => (state.declared = declaration.checked));
        return [
          field('name', 'guardian.name', 'text', { autocomplete: 'name', maxlength: '200' }),
          field('birthYear', 'guardian.birthYear', 'number', { inputmode: 'numeric', min: '1900', max: String(new Date().getUTCFullYear()), autocomplete: 'bday-year' }),
          h('div', { class: 'choice' }, declaration, h('label', { for: 'declaration' }, w('guardian.declaration')), problem('declaration')),
        ];
      }
      case 'VIRTUAL_TOKEN':
        return [h('div', {}, h('label', { for: 'token', class: 'block' }, w('guardian.token')), kept('token', h('textarea', { id: 'token', rows: '4', required: true, ...invalid('token', 'token-hint') })), h('p', { id: 'token-hint', class: 'hint' }, w('guardian.tokenHint')), problem('token'))];
      default:
        return [];
    }
  };

  const typed = (id: FieldId) => (state.typed[id] ?? '').trim();

  /** What the person left out, said before anything is sent (the API would refuse it, naming the same fields). */
  const missing = (guardian: GuardianView): Record<string, string> => {
    const fields: Record<string, string> = {};
    if (!state.method) fields.method = 'required';
    if (state.method === 'SELF_DECLARED') {
      if (!typed('name')) fields.name = 'required';
      if (!/^\d{4}$/.test(typed('birthYear'))) fields.birthYear = 'required';
      if (!state.declared) fields.declaration = 'required';
    }
    if (state.method === 'VIRTUAL_TOKEN' && !typed('token')) fields.token = 'required';
    if (guardian.principalStatus === 'GUARDED' && (!typed('authority') || !typed('orderReference'))) fields[typed('authority') ? 'guardianship.orderReference' : 'guardianship.authority'] = 'required';
    return fields;
  };

  const approve = async (guardian: GuardianView) => {
    if (state.busy) return;
    const left = missing(guardian);
    if (Object.keys(left).length > 0) return failed(failureOf(400, 'VALIDATION_ERROR', left));
    const body: Record<string, unknown> = { method: state.method };
    if (state.off.size > 0) body.consentGiven = Object.fromEntries([...state.off].map((id) => [id, false]));
    if (guardian.principalStatus === 'GUARDED') body.guardianship = { authority: typed('authority'), orderReference: typed('orderReference') };
    if (state.method === 'SELF_DECLARED') Object.assign(body, { name: typed('name'), birthYear: Number(typed('birthYear')), declaration: state.declared });
    if (state.method === 'VIRTUAL_TOKEN') body.token = typed('token');
    await decide(guardian, 'approve', body);
  };

  /** The form again with what failed: the summary (an alert, focused) and each field's own message beside it. */
  const failed = (failure: Failure) => {
    state.failure = failure;
    render('keep');
    document.getElementById('form-error')?.focus();
  };

  const decide = async (guardian: GuardianView, action: 'approve' | 'refuse', body: Record<string, unknown>) => {
    state.busy = true;
    state.failure = null;
    render('keep');
    const answer = await callApi<Decision>('POST', `${path}/${action}`, body);
    state.busy = false;
    if (answer.ok) return show({ kind: action === 'approve' ? 'approved' : 'refused', guardian });
    if (answer.status === 404) return show({ kind: 'gone' });
    failed(failureOf(answer.status, answer.code, answer.fields));
  };

  const summary = (failure: Failure) => {
    const keys = [...new Set([...Object.values(failure.fields), ...(failure.general ? [failure.general] : [])])];
    return h('div', { id: 'form-error', class: 'error', role: 'alert', tabindex: '-1' }, h('p', {}, w('guardian.failed')), h('ul', {}, ...keys.map((key) => h('li', {}, w(key)))));
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
      state.failure ? summary(state.failure) : null,
      h('fieldset', invalid('method'), h('legend', {}, w('guardian.methodLegend')), ...radios, problem('method')),
      ...methodFields(),
      guardianship,
      h('button', { type: 'submit', 'aria-disabled': state.busy ? 'true' : undefined }, w(state.busy ? 'guardian.working' : 'guardian.approve')),
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
