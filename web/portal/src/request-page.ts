import { callApi } from './api';
import { h } from './dom';
import type { PageWords } from './labels';
import { wordsOf } from './tenant-words';
import { askedLanguages, initialLanguage, languageTag } from './languages';
import type { PublicRequest } from './rights-api';
import { summarySection } from './request-summary';
import { loadWords, mount, redraw, t, timeOf, type PageState } from './shell';

type View = { kind: 'loading' | 'invalid' | 'failed' } | { kind: 'request'; request: PublicRequest; busy: boolean; failed: boolean };

/**
 * The page behind a rights request's link (`/portal/r/<token>`): Confirm while it is unverified
 * (opening the page confirms nothing: mail scanners open links), then its status and due date, then
 * the answer with the DPO's contact: the access summary as sections, a grievance's closure receipt.
 */
export const requestPage = async (token: string): Promise<void> => {
  // English until the request says whose it is; then the tenant's words.
  const state: PageState & { view: View } = { language: 'EN', languages: ['EN'], view: { kind: 'loading' } };
  let wordsIn: ((language?: string) => Promise<PageWords | undefined>) | undefined;
  const path = `/rights/requests/public/${encodeURIComponent(token)}`;
  const render = (focus: 'heading' | 'language' | 'keep') => mount(state, viewBody(), { onLanguage, focus });
  const onLanguage = async (code: string) => {
    state.language = code;
    render('language');
    if (wordsIn && (await loadWords(state, wordsIn))) redraw(render);
  };
  /** The tenant's words: in the request form's language where the tenant shows words in it, else the browser's choice. */
  const useTenant = async (request: PublicRequest) => {
    wordsIn = wordsOf(request.tenant.slug);
    state.languages = (await wordsIn())?.languages ?? ['EN'];
    // A link's ?lang= first, then the language the request was made in, then the browser's.
    const made = state.languages.includes(request.language) ? [languageTag(request.language)] : [];
    state.language = initialLanguage(state.languages, [...askedLanguages(location.search, []), ...made, ...navigator.languages]);
    await loadWords(state, wordsIn);
  };
  const show = (view: View, focus: 'heading' | 'keep' = 'heading') => {
    state.view = view;
    render(focus);
  };
  const load = async () => {
    const answer = await callApi<PublicRequest>('GET', path);
    if (answer.ok) {
      if (!wordsIn) await useTenant(answer.data);
      return show({ kind: 'request', request: answer.data, busy: false, failed: false });
    }
    show({ kind: answer.code === 'NOT_FOUND' || answer.code === 'VALIDATION_ERROR' ? 'invalid' : 'failed' });
  };

  const confirm = async (request: PublicRequest) => {
    if (state.view.kind !== 'request' || state.view.busy) return;
    show({ kind: 'request', request, busy: true, failed: false }, 'keep');
    const answer = await callApi<PublicRequest>('POST', `${path}/confirm`);
    if (answer.ok) {
      if (!wordsIn) await useTenant(answer.data);
      return show({ kind: 'request', request: answer.data, busy: false, failed: false });
    }
    // Expired meanwhile (410) or confirmed in another tab (409): the page shows what is now true.
    if (answer.code === 'GONE' || answer.code === 'CONFLICT') return load();
    show({ kind: 'request', request, busy: false, failed: true }, 'keep');
    document.getElementById('confirm-error')?.focus();
  };

  const facts = (request: PublicRequest): HTMLElement => {
    const pairs: [Node, Node | string][] = [
      [t(state, 'rights.requestLabel'), t(state, `rights.typeName_${request.type}`)],
      [t(state, 'rights.detailsLabel'), h('span', { dir: 'auto', class: 'prewrap' }, request.details)],
      ...(request.nominee ? ([[t(state, 'rights.nomineeLabel'), h('span', { dir: 'auto' }, `${request.nominee.name} (${request.nominee.relationship})`)]] as [Node, Node][]) : []),
      [t(state, 'rights.statusLabel'), h('span', { id: 'request-status' }, t(state, `rights.status_${request.status}`))],
      [t(state, 'rights.createdLabel'), timeOf(state, request.createdAt)],
      ...(request.confirmBy ? ([[t(state, 'rights.confirmByLabel'), timeOf(state, request.confirmBy)]] as [Node, Node][]) : []),
      ...(request.submittedAt ? ([[t(state, 'rights.submittedLabel'), timeOf(state, request.submittedAt)]] as [Node, Node][]) : []),
      ...(request.dueAt
        ? ([[t(state, 'rights.dueLabel'), h('span', {}, timeOf(state, request.dueAt), ...(request.daysLeft !== null && !request.overdue ? [' (', t(state, 'rights.daysLeft', { days: request.daysLeft }), ')'] : []))]] as [Node, Node][])
        : []),
      ...(request.resolvedAt ? ([[t(state, 'rights.resolvedLabel'), timeOf(state, request.resolvedAt)]] as [Node, Node][]) : []),
    ];
    return h('dl', { class: 'facts' }, ...pairs.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
  };

  const statusCard = (view: Extract<View, { kind: 'request' }>): Node[] => {
    const { request } = view;
    const tenant = request.tenant.name;
    const intro = h('p', {}, t(state, 'rights.requestIntro', { tenant }));
    if (request.status === 'UNVERIFIED') {
      const button = h('button', { type: 'button', id: 'confirm', 'aria-disabled': view.busy ? 'true' : undefined }, t(state, view.busy ? 'rights.confirming' : 'rights.confirmRequest'));
      button.addEventListener('click', () => void confirm(request));
      return [
        h(
          'section',
          { class: 'card' },
          intro,
          facts(request),
          h('p', {}, t(state, 'rights.confirmText', { tenant })),
          view.failed ? h('p', { id: 'confirm-error', class: 'error', role: 'alert', tabindex: '-1' }, t(state, 'portal.failed')) : null,
          button,
        ),
      ];
    }
    if (request.status === 'EXPIRED') {
      return [h('section', { class: 'card' }, intro, facts(request), h('p', {}, t(state, 'rights.expiredRequestText')), h('p', {}, h('a', { href: `/portal/t/${encodeURIComponent(request.tenant.slug)}` }, t(state, 'rights.newRequest', { tenant }))))];
    }
    const open = request.status === 'SUBMITTED' || request.status === 'IN_PROGRESS';
    return [h('section', { class: 'card' }, intro, facts(request), open ? h('p', {}, t(state, request.overdue ? 'rights.overdue' : 'rights.confirmedText', { tenant })) : null)];
  };

  const answer = (request: PublicRequest): Node[] => {
    if (request.status !== 'RESOLVED' || !request.outcome) return [];
    const tenant = request.tenant.name;
    return [
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'answer-heading' },
        h('h2', { id: 'answer-heading' }, t(state, 'rights.answerHeading')),
        h('dl', { class: 'facts' }, h('dt', {}, t(state, 'rights.outcomeLabel')), h('dd', { id: 'outcome' }, t(state, `rights.outcome_${request.outcome}`))),
        h('p', { dir: 'auto', class: 'prewrap', id: 'response' }, request.response ?? ''),
        request.type === 'GRIEVANCE' ? h('p', {}, t(state, 'rights.boardAfterGrievance', { tenant })) : null,
        request.closure ? h('div', {}, h('p', {}, t(state, 'rights.closureReceipt')), h('pre', { class: 'receipt', id: 'closure-receipt', tabindex: '0' }, request.closure.receipt)) : null,
        request.linkValidUntil ? h('p', { class: 'hint' }, t(state, 'rights.linkValidUntil'), ' ', timeOf(state, request.linkValidUntil)) : null,
      ),
      ...(request.summary ? [summarySection(state, request.summary, tenant, request.requestId)] : []),
    ];
  };

  const contact = (request: PublicRequest): Node[] =>
    request.dpoContact
      ? [h('section', { class: 'card', 'aria-labelledby': 'contact-heading' }, h('h2', { id: 'contact-heading' }, t(state, 'portal.contactHeading')), h('p', {}, t(state, 'portal.contact'), ' ', h('a', { href: `mailto:${request.dpoContact}` }, request.dpoContact)))]
      : [];

  const viewBody = (): { title: Node; body: Node[] } => {
    const view = state.view;
    switch (view.kind) {
      case 'loading':
        return { title: t(state, 'rights.requestPageTitle'), body: [h('p', { id: 'loading' }, t(state, 'portal.loading'))] };
      case 'invalid':
        return { title: t(state, 'portal.invalidHeading'), body: [h('p', { class: 'card' }, t(state, 'rights.requestNotFoundText'))] };
      case 'failed':
        return { title: t(state, 'rights.requestPageTitle'), body: [h('p', { class: 'card' }, t(state, 'portal.failed'))] };
      case 'request':
        return { title: t(state, 'rights.requestPageTitle'), body: [...statusCard(view), ...answer(view.request), ...contact(view.request)] };
    }
  };

  render('keep');
  await load();
};
