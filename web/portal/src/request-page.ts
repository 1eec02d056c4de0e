import { callApi } from './api';
import { h } from './dom';
import { chromeLanguages } from './labels';
import { initialLanguage } from './languages';
import type { PublicRequest } from './rights-api';
import { summarySection } from './request-summary';
import { mount, t, timeOf, type PageState } from './shell';

type View = { kind: 'loading' | 'invalid' | 'failed' } | { kind: 'request'; request: PublicRequest; busy: boolean; failed: boolean };

/**
 * The page behind a rights request's link (`/portal/r/<token>`): Confirm while it is unverified
 * (opening the page confirms nothing: mail scanners open links), then its status and due date, then
 * the answer with the DPO's contact: the access summary as sections, a grievance's closure receipt.
 */
export const requestPage = async (token: string): Promise<void> => {
  const state: PageState & { view: View } = { language: initialLanguage(chromeLanguages, navigator.languages), languages: chromeLanguages, view: { kind: 'loading' } };
  const path = `/rights/requests/public/${encodeURIComponent(token)}`;
  const render = (focus: 'heading' | 'language' | 'keep') => mount(state, viewBody(), { onLanguage, focus });
  const onLanguage = (code: string) => {
    state.language = code;
    render('language');
  };
  const show = (view: View, focus: 'heading' | 'keep' = 'heading') => {
    state.view = view;
    render(focus);
  };
  const load = async () => {
    const answer = await callApi<PublicRequest>('GET', path);
    if (answer.ok) return show({ kind: 'request', request: answer.data, busy: false, failed: false });
    show({ kind: answer.code === 'NOT_FOUND' || answer.code === 'VALIDATION_ERROR' ? 'invalid' : 'failed' });
  };

  const confirm = async (request: PublicRequest) => {
    if (state.view.kind !== 'request' || state.view.busy) return;
    show({ kind: 'request', request, busy: true, failed: false }, 'keep');
    const answer = await callApi<PublicRequest>('POST', `${path}/confirm`);
    if (answer.ok) return show({ kind: 'request', request: answer.data, busy: false, failed: false });
    // Expired meanwhile (410) or confirmed in another tab (409): the page shows what is now true.
    if (answer.code === 'GONE' || answer.code === 'CONFLICT') return load();
    show({ kind: 'request', request, busy: false, failed: true }, 'keep');
    document.getElementById('confirm-error')?.focus();
  };

  const facts = (request: PublicRequest): HTMLElement => {
    const pairs: [Node, Node | string][] = [
      [t(state, 'requestLabel'), t(state, `typeName_${request.type}`)],
      [t(state, 'detailsLabel'), h('span', { dir: 'auto', class: 'prewrap' }, request.details)],
      ...(request.nominee ? ([[t(state, 'nomineeLabel'), h('span', { dir: 'auto' }, `${request.nominee.name} (${request.nominee.relationship})`)]] as [Node, Node][]) : []),
      [t(state, 'statusLabel'), h('span', { id: 'request-status' }, t(state, `status_${request.status}`))],
      [t(state, 'createdLabel'), timeOf(state, request.createdAt)],
      ...(request.confirmBy ? ([[t(state, 'confirmByLabel'), timeOf(state, request.confirmBy)]] as [Node, Node][]) : []),
      ...(request.submittedAt ? ([[t(state, 'submittedLabel'), timeOf(state, request.submittedAt)]] as [Node, Node][]) : []),
      ...(request.dueAt
        ? ([[t(state, 'dueLabel'), h('span', {}, timeOf(state, request.dueAt), ...(request.daysLeft !== null && !request.overdue ? [' (', t(state, 'daysLeft', { days: request.daysLeft }), ')'] : []))]] as [Node, Node][])
        : []),
      ...(request.resolvedAt ? ([[t(state, 'resolvedLabel'), timeOf(state, request.resolvedAt)]] as [Node, Node][]) : []),
    ];
    return h('dl', { class: 'facts' }, ...pairs.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
  };

  const statusCard = (view: Extract<View, { kind: 'request' }>): Node[] => {
    const { request } = view;
    const tenant = request.tenant.name;
    const intro = h('p', {}, t(state, 'requestIntro', { tenant }));
    if (request.status === 'UNVERIFIED') {
      const button = h('button', { type: 'button', id: 'confirm', 'aria-disabled': view.busy ? 'true' : undefined }, t(state, view.busy ? 'confirming' : 'confirmRequest'));
      button.addEventListener('click', () => void confirm(request));
      return [
        h(
          'section',
          { class: 'card' },
          intro,
          facts(request),
          h('p', {}, t(state, 'confirmText', { tenant })),
          view.failed ? h('p', { id: 'confirm-error', class: 'error', role: 'alert', tabindex: '-1' }, t(state, 'failed')) : null,
          button,
        ),
      ];
    }
    if (request.status === 'EXPIRED') {
      return [h('section', { class: 'card' }, intro, facts(request), h('p', {}, t(state, 'expiredRequestText')), h('p', {}, h('a', { href: `/portal/t/${encodeURIComponent(request.tenant.slug)}` }, t(state, 'newRequest', { tenant }))))];
    }
    const open = request.status === 'SUBMITTED' || request.status === 'IN_PROGRESS';
    return [h('section', { class: 'card' }, intro, facts(request), open ? h('p', {}, t(state, request.overdue ? 'overdue' : 'confirmedText', { tenant })) : null)];
  };

  const answer = (request: PublicRequest): Node[] => {
    if (request.status !== 'RESOLVED' || !request.outcome) return [];
    const tenant = request.tenant.name;
    return [
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'answer-heading' },
        h('h2', { id: 'answer-heading' }, t(state, 'answerHeading')),
        h('dl', { class: 'facts' }, h('dt', {}, t(state, 'outcomeLabel')), h('dd', { id: 'outcome' }, t(state, `outcome_${request.outcome}`))),
        h('p', { dir: 'auto', class: 'prewrap', id: 'response' }, request.response ?? ''),
        request.type === 'GRIEVANCE' ? h('p', {}, t(state, 'boardAfterGrievance', { tenant })) : null,
        request.closure ? h('div', {}, h('p', {}, t(state, 'closureReceipt')), h('pre', { class: 'receipt', id: 'closure-receipt', tabindex: '0' }, request.closure.receipt)) : null,
        request.linkValidUntil ? h('p', { class: 'hint' }, t(state, 'linkValidUntil'), ' ', timeOf(state, request.linkValidUntil)) : null,
      ),
      ...(request.summary ? [summarySection(state, request.summary, tenant, request.requestId)] : []),
    ];
  };

  const contact = (request: PublicRequest): Node[] =>
    request.dpoContact
      ? [h('section', { class: 'card', 'aria-labelledby': 'contact-heading' }, h('h2', { id: 'contact-heading' }, t(state, 'contactHeading')), h('p', {}, t(state, 'contact'), ' ', h('a', { href: `mailto:${request.dpoContact}` }, request.dpoContact)))]
      : [];

  const viewBody = (): { title: Node; body: Node[] } => {
    const view = state.view;
    switch (view.kind) {
      case 'loading':
        return { title: t(state, 'requestPageTitle'), body: [h('p', { id: 'loading' }, t(state, 'loading'))] };
      case 'invalid':
        return { title: t(state, 'invalidHeading'), body: [h('p', { class: 'card' }, t(state, 'requestNotFoundText'))] };
      case 'failed':
        return { title: t(state, 'requestPageTitle'), body: [h('p', { class: 'card' }, t(state, 'failed'))] };
      case 'request':
        return { title: t(state, 'requestPageTitle'), body: [...statusCard(view), ...answer(view.request), ...contact(view.request)] };
    }
  };

  render('keep');
  await load();
  // The request form's language, where the page has it, else the browser's.
  if (state.view.kind === 'request' && chromeLanguages.includes(state.view.request.language) && state.view.request.language !== state.language) {
    state.language = state.view.request.language;
    render('keep');
  }
};
