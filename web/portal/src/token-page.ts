import { callApi, type LinkGone, type PortalView, type WithdrawalDone } from './api';
import { h } from './dom';
import type { LabelKey, PageWords } from './labels';
import { wordsOf } from './tenant-words';
import { askedLanguages, initialLanguage } from './languages';
import { loadWords, mount, redraw, t, timeOf, type PageState } from './shell';

type View =
  | { kind: 'loading' }
  | { kind: 'form'; portal: PortalView }
  | { kind: 'done'; portal: PortalView; result: WithdrawalDone }
  | { kind: 'expired' | 'used'; gone: LinkGone | undefined }
  | { kind: 'invalid' | 'failed' };

/** What the principal has chosen so far; kept across re-renders (a language switch redraws the form). */
interface Draft {
  mode: 'all' | 'some';
  selected: Set<string>;
  reason: string;
  error: LabelKey | null;
  busy: boolean;
}

/** The API answers with the spec's codes (404 NOT_FOUND, 409 CONFLICT); which link problem it is, is details.reason. */
const viewOfError = (code: string, gone?: LinkGone): View => {
  if (gone?.reason === 'EXPIRED') return { kind: 'expired', gone };
  if (gone?.reason === 'USED') return { kind: 'used', gone };
  if (gone?.reason === 'NOT_FOUND' || code === 'VALIDATION_ERROR') return { kind: 'invalid' };
  return { kind: 'failed' };
};

/**
 * The notice's words in the page's language, English where the tenant has none. The API does not
 * say which fields fell back, so the elements holding them take dir="auto": an English sentence
 * inside an Urdu page still reads left to right.
 */
const textOf = (portal: PortalView, language: string) => {
  const translation = portal.translations[language];
  return {
    title: translation?.title ?? portal.notice.title,
    rightsText: translation?.rightsText ?? portal.notice.rightsText,
    complaintText: translation?.complaintText ?? portal.notice.complaintText,
    purposeName: (id: string, fallback: string) => translation?.purposes[id]?.name ?? fallback,
    purposeDescription: (id: string, fallback: string) => translation?.purposes[id]?.description ?? fallback,
  };
};

/** The page behind a single-use withdrawal link (`/portal/<token>`). */
export const tokenPage = async (token: string): Promise<void> => {
  // Until the notice says which languages it has, the chrome's own languages are offered.
  // English until the link says whose it is; then the tenant's words, in the notice's languages.
  const state: PageState & { view: View } = { language: 'EN', languages: ['EN'], view: { kind: 'loading' } };
  let wordsIn: ((language: string) => Promise<PageWords | undefined>) | undefined;
  const draft: Draft = { mode: 'all', selected: new Set(), reason: '', error: null, busy: false };
  const path = `/consent/portal/${encodeURIComponent(token)}`;

  const render = (focus: 'heading' | 'language' | 'keep') => mount(state, viewBody(), { onLanguage, focus });
  const onLanguage = async (code: string) => {
    state.language = code;
    render('language');
    if (wordsIn && (await loadWords(state, wordsIn))) redraw(render);
  };
  /** The tenant's words, in the first of `languages` the browser asks for (all the tenant shows, without them). */
  const useTenant = async (slug: string, languages?: string[]) => {
    const words = wordsOf(slug);
    wordsIn = words;
    state.languages = languages ?? (await words())?.languages ?? ['EN'];
    state.language = initialLanguage(state.languages, askedLanguages(location.search, navigator.languages));
    await loadWords(state, words);
  };
  const show = (view: View) => {
    state.view = view;
    render('heading');
  };
  const showError = (key: LabelKey) => {
    draft.error = key;
    render('keep');
    document.getElementById('form-error')?.focus();
  };

  const submit = async (portal: PortalView) => {
    if (draft.busy) return;
    if (draft.mode === 'some' && draft.selected.size === 0) return showError('portal.chooseOne');
    draft.error = null;
    draft.busy = true;
    render('keep');
    const body = {
      withdrawAll: draft.mode === 'all',
      ...(draft.mode === 'some' ? { purposeIds: [...draft.selected] } : {}),
      ...(draft.reason.trim() ? { reason: draft.reason.trim() } : {}),
    };
    const answer = await callApi<WithdrawalDone>('POST', `${path}/withdraw`, body);
    draft.busy = false;
    if (answer.ok) return show({ kind: 'done', portal, result: answer.data });
    const next = viewOfError(answer.code, answer.details);
    if (next.kind !== 'failed' && next.kind !== 'invalid') return show(next);
    showError('portal.failed');
  };

  const form = (portal: PortalView): Node[] => {
    const text = textOf(portal, state.language);
    const open = portal.purposes.filter((purpose) => purpose.granted && !purpose.withdrawn);
    if (portal.isWithdrawn || open.length === 0) return [h('p', { class: 'card' }, t(state, 'portal.nothingLeft'))];
    const radio = (mode: Draft['mode'], key: 'portal.withdrawAll' | 'portal.withdrawSome') => {
      const input = h('input', { type: 'radio', name: 'mode', id: `mode-${mode}`, value: mode, checked: draft.mode === mode });
      input.addEventListener('change', () => {
        draft.mode = mode;
        render('keep');
        document.getElementById(`mode-${mode}`)?.focus();
      });
      return h('div', { class: 'choice' }, input, h('label', { for: `mode-${mode}` }, t(state, key)));
    };
    const checkboxes =
      draft.mode === 'some'
        ? h(
            'fieldset',
            { class: 'sub' },
            h('legend', {}, t(state, 'portal.purposesLegend')),
            ...open.map((purpose) => {
              const input = h('input', { type: 'checkbox', id: `purpose-${purpose.id}`, value: purpose.id, checked: draft.selected.has(purpose.id) });
              input.addEventListener('change', () => (input.checked ? draft.selected.add(purpose.id) : draft.selected.delete(purpose.id)));
              const required = purpose.required ? h('span', {}, ' (', t(state, 'portal.required'), ')') : null;
              return h('div', { class: 'choice' }, input, h('label', { for: `purpose-${purpose.id}`, dir: 'auto' }, text.purposeName(purpose.id, purpose.name), required));
            }),
          )
        : null;
    const reason = h('textarea', { id: 'reason', name: 'reason', maxlength: '500', 'aria-describedby': 'reason-hint' });
    reason.value = draft.reason;
    const counter = h('p', { id: 'reason-hint', class: 'hint' }, `${draft.reason.length} / 500`);
    reason.addEventListener('input', () => {
      draft.reason = reason.value;
      counter.textContent = `${reason.value.length} / 500`;
    });
    const button = h('button', { type: 'submit', 'aria-disabled': draft.busy ? 'true' : undefined }, t(state, draft.busy ? 'portal.submitting' : 'portal.submit'));
    const element = h(
      'form',
      { class: 'card', novalidate: true },
      h('fieldset', {}, h('legend', {}, t(state, 'portal.choiceLegend')), radio('all', 'portal.withdrawAll'), radio('some', 'portal.withdrawSome'), checkboxes),
      h('label', { for: 'reason', class: 'block' }, t(state, 'portal.reason')),
      reason,
      counter,
      h('h2', {}, t(state, 'portal.meaningHeading')),
      h('p', {}, t(state, 'portal.meaning', { tenant: portal.tenant.name })),
      draft.error ? h('p', { id: 'form-error', class: 'error', role: 'alert', tabindex: '-1' }, t(state, draft.error)) : null,
      button,
    );
    element.addEventListener('submit', (event) => {
      event.preventDefault();
      void submit(portal);
    });
    return [element];
  };

  const purposeList = (portal: PortalView): HTMLElement => {
    const text = textOf(portal, state.language);
    return h(
      'ul',
      { class: 'purposes' },
      ...portal.purposes.map((purpose) => {
        const [stateKey, stateClass] = purpose.withdrawn ? (['portal.withdrawn', 'withdrawn'] as const) : purpose.granted ? (['portal.granted', 'granted'] as const) : (['portal.notGiven', 'absent'] as const);
        return h(
          'li',
          {},
          h('h4', { dir: 'auto' }, text.purposeName(purpose.id, purpose.name), h('span', { class: `badge ${stateClass}` }, t(state, stateKey)), purpose.required ? h('span', { class: 'badge required' }, t(state, 'portal.required')) : null),
          h('p', { class: 'muted', dir: 'auto' }, text.purposeDescription(purpose.id, purpose.description)),
        );
      }),
    );
  };

  const contact = (portal: PortalView): HTMLElement => {
    const text = textOf(portal, state.language);
    const { contactEmail, contactUrl } = portal.notice;
    return h(
      'section',
      { class: 'card', 'aria-labelledby': 'contact-heading' },
      h('h2', { id: 'contact-heading' }, t(state, 'portal.contactHeading')),
      text.rightsText ? h('div', {}, h('h3', {}, t(state, 'portal.rights')), h('p', { dir: 'auto' }, text.rightsText)) : null,
      contactEmail ? h('p', {}, t(state, 'portal.contact'), ' ', h('a', { href: `mailto:${contactEmail}` }, contactEmail)) : null,
      contactUrl ? h('p', {}, h('a', { href: contactUrl, rel: 'noreferrer' }, contactUrl)) : null,
      h('h3', {}, t(state, 'portal.complaint')),
      text.complaintText ? h('p', { dir: 'auto' }, text.complaintText) : null,
      h('p', {}, t(state, 'portal.board', { tenant: portal.tenant.name })),
    );
  };

  const summary = (portal: PortalView): HTMLElement => {
    const text = textOf(portal, state.language);
    return h(
      'section',
      { class: 'card', 'aria-labelledby': 'notice-heading' },
      h('p', {}, t(state, 'portal.intro', { tenant: portal.tenant.name })),
      h('h2', { id: 'notice-heading', dir: 'auto' }, text.title),
      h('p', { class: 'muted' }, t(state, 'portal.notice'), ', ', t(state, 'portal.version', { version: portal.notice.versionNumber }), ' · ', t(state, 'portal.consentedAt'), ' ', timeOf(state, portal.consentedAt)),
      h('h3', {}, t(state, 'portal.purposesHeading')),
      purposeList(portal),
      portal.purposes.some((purpose) => purpose.required) ? h('p', { class: 'hint' }, t(state, 'portal.requiredHint')) : null,
    );
  };

  const done = (portal: PortalView, result: WithdrawalDone): Node[] => {
    const text = textOf(portal, state.language);
    const names = result.isFullWithdrawal
      ? t(state, 'portal.allPurposes')
      : result.purposesWithdrawn.map((id) => text.purposeName(id, portal.purposes.find((purpose) => purpose.id === id)?.name ?? id)).join(', ');
    return [
      h(
        'section',
        { class: 'card' },
        h('p', {}, t(state, 'portal.doneText', { tenant: portal.tenant.name })),
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, t(state, 'portal.reference')),
          h('dd', { id: 'withdrawal-id' }, result.withdrawalId),
          h('dt', {}, t(state, 'portal.recordedAt')),
          h('dd', {}, timeOf(state, result.withdrawnAt)),
          h('dt', {}, t(state, 'portal.purposesWithdrawn')),
          h('dd', {}, names),
          h('dt', {}, t(state, 'portal.actBy')),
          h('dd', {}, timeOf(state, result.complianceTask.dueAt)),
        ),
        h('p', { class: 'hint' }, t(state, 'portal.doneMail')),
      ),
      contact(portal),
    ];
  };

  const message = (key: 'portal.invalidText' | 'portal.failed'): Node[] => [h('p', { class: 'card' }, t(state, key))];

  /** An expired or used link: what happened, when, and the tenant's page for a new link when known. */
  const gone = (key: 'portal.expiredText' | 'portal.usedText', facts: LinkGone | undefined): Node[] => {
    const when = facts?.usedAt ?? facts?.expiredAt;
    return [
      h(
        'section',
        { class: 'card' },
        h('p', {}, t(state, key)),
        when ? h('p', { class: 'muted' }, t(state, facts?.usedAt ? 'portal.usedAt' : 'portal.expiredAt'), ' ', timeOf(state, when)) : null,
        facts?.newLinkUrl && facts.tenant
          ? h('p', {}, h('a', { href: facts.newLinkUrl }, t(state, 'portal.newLink', { tenant: facts.tenant.name })))
          : h('p', {}, t(state, 'portal.askOrganisation')),
      ),
    ];
  };

  const viewBody = (): { title: Node; body: Node[] } => {
    const view = state.view;
    switch (view.kind) {
      case 'loading':
        return { title: t(state, 'portal.pageTitle'), body: [h('p', { id: 'loading' }, t(state, 'portal.loading'))] };
      case 'form':
        return { title: t(state, 'portal.pageTitle'), body: [summary(view.portal), ...form(view.portal), contact(view.portal)] };
      case 'done':
        return { title: t(state, 'portal.doneHeading'), body: done(view.portal, view.result) };
      case 'expired':
        return { title: t(state, 'portal.expiredHeading'), body: gone('portal.expiredText', view.gone) };
      case 'used':
        return { title: t(state, 'portal.usedHeading'), body: gone('portal.usedText', view.gone) };
      case 'invalid':
        return { title: t(state, 'portal.invalidHeading'), body: message('portal.invalidText') };
      case 'failed':
        return { title: t(state, 'portal.pageTitle'), body: message('portal.failed') };
    }
  };

  render('keep');
  const answer = await callApi<PortalView>('GET', path);
  if (!answer.ok) {
    const slug = answer.details?.tenant?.slug;
    if (slug) await useTenant(slug);
    return show(viewOfError(answer.code, answer.details));
  }
  await useTenant(answer.data.tenant.slug, answer.data.availableLanguages);
  show({ kind: 'form', portal: answer.data });
  // Her visit counts as activity (docs/retention.md) at a person's first gesture, never on load: mail scanners open links too.
  const visited = () => {
    for (const type of ['pointerdown', 'keydown'] as const) document.removeEventListener(type, visited, true);
    void callApi('POST', `${path}/visit`);
  };
  for (const type of ['pointerdown', 'keydown'] as const) document.addEventListener(type, visited, true);
};
