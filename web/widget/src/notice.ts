import { widgetStorage } from '../../../shared/cmp/widget-storage';
import { button, dialog, h, link, panelOf, toggle } from './dom';
import { call, emit, load, save } from './env';
import { direction, languageSwitcher, type Context } from './context';

interface Purpose {
  id: string;
  name: string;
  description: string;
  required: boolean;
  dataCategories: string[];
  /** Set when the purpose states its retention: its words ride with the banner's (bootstrap-shape.ts retentionWordKey). */
  retention?: object | null;
}
interface Translation {
  title: string;
  introText: string;
  rightsText?: string;
  complaintText?: string;
  purposes: Record<string, { name: string; description: string }>;
}
/** The published notice, as GET /consent/public-notice serves it (the bootstrap's `notice`). */
export interface PublicNotice {
  id: string;
  title: string;
  description: string;
  privacyPolicyUrl: string | null;
  contactEmail: string;
  complaintText: string;
  rightsText?: string;
  withdrawalUrl: string | null;
  purposes: Purpose[];
  /** The languages loaded so far (the bootstrap carries one at a time). */
  translations: Record<string, Translation>;
  availableLanguages: string[];
  /** availableLanguages named in themselves, for the switcher. */
  languageNames?: Record<string, string>;
  versionNumber?: number;
  materialNoticeId?: string;
  /** The tenant's children policy (s.9): ask the age; purposes never offered to a child. */
  children?: { askAge: boolean; prohibited: string[] };
}
interface Decision {
  noticeId: string;
  versionNumber: number | null;
  materialNoticeId: string;
  consentRecordId: string;
  /** The proof of possession sdk-withdraw asks for; absent on decisions made before withdrawal keys. */
  withdrawalKey?: string;
  purposes: Record<string, boolean>;
  decidedAt: string;
}

/** The notice banner: shows the notice, records the decision with proof, withdraws through the widget route. */
/**
 * `cookies`, when the page has both banners: `preferences` opens the cookie banner's preferences from
 * the reopened notice, `optional` names the categories a visitor may refuse, and `reject` refuses them
 * through the cookie banner's own decision (Consent Mode, blocked tags, events), for "Withdraw all".
 */
export const noticeBanner = (context: Context, notice: PublicNotice, cookies?: { preferences: () => void; optional: string[]; reject: () => unknown }) => {
  const { embed, ui } = context;
  const baseline = notice.materialNoticeId ?? notice.id;
  // Per tenant: one browser may visit several tenants' sites on one origin (a shared host, a test).
  const storageKey = widgetStorage.noticeDecision(embed.tenantId || embed.apiKey.split('_')[1]!);
  let decision = load<Decision>(storageKey);
  /** No decision on file, or one given before the notice's last material change. */
  const stale = () => !decision || decision.materialNoticeId !== baseline;
  let reviewing = false;
  /** "Withdraw all" was pressed: the dialog asks to confirm, saying what is withdrawn. */
  let confirming = false;
  let withdrawAll: HTMLElement | undefined;
  /**
   * The visitor said she is under 18 (embed.minor, which the cookie banner reads too): her decision
   * waits for the guardian whose email she gave, and a purpose prohibited for children is not offered.
   */
  let guardianEmail = '';
  const offered = (purpose: Purpose) => !embed.minor || !notice.children?.prohibited.includes(purpose.id);

  const text = () => {
    const translation = context.language === 'EN' ? undefined : notice.translations[context.language];
    return {
      title: translation?.title ?? notice.title,
      intro: translation?.introText ?? notice.description,
      rights: translation?.rightsText ?? notice.rightsText,
      complaint: translation?.complaintText ?? notice.complaintText,
      purpose: (purpose: Purpose) => translation?.purposes[purpose.id] ?? purpose,
    };
  };
  const label = context.t;

  const state = () =>
    decision && { noticeId: decision.noticeId, versionNumber: decision.versionNumber, consentRecordId: decision.consentRecordId, purposes: decision.purposes, decidedAt: decision.decidedAt };

  const store = (next: Decision, event: string) => {
    decision = next;
    save(storageKey, next);
    emit(event, { notice: state() });
  };

  const record = async (purposes: Record<string, boolean>): Promise<boolean> => {
    const optional = notice.purposes.filter((purpose) => !purpose.required).map((purpose) => purposes[purpose.id]);
    const status = optional.every(Boolean) ? 'ACCEPTED' : optional.some(Boolean) ? 'PARTIAL' : 'REJECTED';
    const reply = await call<{ consentRecordId: string; withdrawalKey: string }>(`${embed.apiBase}/consent/sdk-record`, {
      apiKey: embed.apiKey,
      status,
      purposes,
      noticeId: notice.id,
      language: context.language,
      positionShown: ui.position,
      userAgent: navigator.userAgent.slice(0, 1000),
      ...(embed.minor && { principalStatus: 'CHILD', guardianEmail }),
      ...(location.href.length <= 2000 && /^https?:/.test(location.href) ? { url: location.href } : {}),
      ...context.identity,
    });
    if (!reply.data) return false;
    const first = stale();
    store(
      {
        noticeId: notice.id,
        versionNumber: notice.versionNumber ?? null,
        materialNoticeId: baseline,
        consentRecordId: reply.data.consentRecordId,
        withdrawalKey: reply.data.withdrawalKey,
        purposes,
        decidedAt: new Date().toISOString(),
      },
      first ? 'consent' : 'change',
    );
    return true;
  };

  /** Set when a withdrawal can only be made on the withdrawal page: the failure then says so, with the link. */
  let onPage = false;

  /**
   * A real withdrawal (WithdrawalRecord, compliance task, webhook), authorised by the record's id
   * and the withdrawal key sdk-record gave this browser. A decision made before withdrawal keys
   * has none (and the service answers 404 for it): that person is sent to the withdrawal page.
   */
  const withdraw = async (purposeIds?: string[]): Promise<boolean> => {
    if (!decision) return false;
    const reply = decision.withdrawalKey
      ? await call(`${embed.apiBase}/consent/sdk-withdraw`, {
          apiKey: embed.apiKey,
          consentRecordId: decision.consentRecordId,
          withdrawalKey: decision.withdrawalKey,
          purposeIds,
        })
      : { status: 404 };
    onPage = reply.status === 404;
    // 409: already withdrawn elsewhere (the portal, the DPO); the visitor's view catches up.
    if (reply.status !== 200 && reply.status !== 409) return false;
    const purposes = { ...decision.purposes };
    for (const id in purposes) if (!purposeIds || purposeIds.indexOf(id) >= 0) purposes[id] = false;
    store({ ...decision, purposes, decidedAt: new Date().toISOString() }, 'withdraw');
    return true;
  };

  /** From the switches: purposes turned off are withdrawn; any turned on (or an answer to a prompt) is a new record. */
  const apply = async (chosen: Record<string, boolean>): Promise<boolean> => {
    if (!decision || stale()) return record(chosen);
    const before = decision.purposes;
    const off = notice.purposes.filter((purpose) => before[purpose.id] && !chosen[purpose.id]).map((purpose) => purpose.id);
    const on = notice.purposes.some((purpose) => chosen[purpose.id] && !before[purpose.id]);
    if (off.length > 0 && !(await withdraw(off))) return false;
    return on ? record(chosen) : true;
  };

  const render = (): HTMLElement => {
    const words = text();
    const switches: Record<string, HTMLInputElement> = {};
    const current = reviewing && decision ? decision.purposes : {};
    const error = h('p', { role: 'alert', className: 's' });
    const decide = (choose: (purpose: Purpose) => boolean | undefined, custom?: (chosen: Record<string, boolean>) => Promise<boolean>) => async () => {
      const chosen: Record<string, boolean> = {};
      for (const purpose of notice.purposes) chosen[purpose.id] = offered(purpose) && (purpose.required || !!choose(purpose));
      if (embed.minor && !guardianEmail) return error.replaceChildren(label('age.guardianEmail'));
      if (await (custom ?? apply)(chosen)) return close();
      error.replaceChildren(label('saveFailed'));
      if (onPage && notice.withdrawalUrl) {
        const page = link(notice.withdrawalUrl, label('notice.withdrawalPage'));
        error.replaceChildren(label('notice.withdrawOnPage'), ' ', page);
        page.focus();
      }
    };
    const purposes = notice.purposes.filter(offered).map((purpose) => {
      const shown = words.purpose(purpose);
      const { row, input } = toggle(
        `cms-p-${purpose.id}`,
        shown.name,
        purpose.required || !!current[purpose.id],
        purpose.required,
        label('notice.required'),
        h('p', {}, shown.description),
        h('p', {}, label('notice.dataUsed'), `: ${purpose.dataCategories.join(', ')}`),
        purpose.retention && h('p', {}, label(`purpose.${purpose.id}.retention`)),
      );
      switches[purpose.id] = input;
      return h('li', {}, row);
    });
    const contact = h('p', {}, label('notice.contact'), ': ', h('a', { href: `mailto:${notice.contactEmail}` }, notice.contactEmail));
    if (notice.privacyPolicyUrl) contact.append(' · ', link(notice.privacyPolicyUrl, label('notice.privacyPolicy')));
    if (confirming)
      return dialog(
        'cms-n',
        context.language,
        direction(context),
        words.title,
        h('p', {}, label('notice.withdrawAllPurposes')),
        !!cookies?.optional.length && h('p', {}, label('notice.withdrawAllCookies'), ` ${cookies.optional.map((category) => context.labels(`category.${category}.name`)).join(', ')}`),
        error,
        h(
          'div',
          { className: 'r' },
          // The cookie refusal never waits on the notice's withdrawal: it holds on this page even offline.
          button(label('notice.withdrawAllConfirm'), decide(() => false, async () => (await cookies?.reject(), withdraw())), true),
          button(label('notice.withdrawCancel'), cancel),
        ),
      );
    const withdrawal = h('p', {}, label('notice.withdrawalHint'));
    if (notice.withdrawalUrl) withdrawal.append(' ', link(notice.withdrawalUrl, label('notice.withdrawalPage')));
    return dialog(
      'cms-n',
      context.language,
      direction(context),
      words.title,
      languageSwitcher(context, notice.availableLanguages, 'cms-n'),
      h('p', {}, words.intro),
      notice.children?.askAge &&
        !reviewing &&
        h(
          'fieldset',
          {},
          h('legend', {}, label('age.question')),
          ...[false, true].map((minor) =>
            h('label', { className: 'ag' }, h('input', { type: 'radio', name: 'cms-age', checked: !embed.minor === !minor, id: `cms-age${+minor}`, onchange: () => ((embed.minor = minor), redraw()?.querySelector<HTMLElement>(`#cms-age${+minor}`)?.focus()) }), label(minor ? 'age.child' : 'age.adult')),
          ),
          ...(embed.minor
            ? [h('label', { className: 'ag' }, label('age.guardianEmail'), h('input', { type: 'email', value: guardianEmail, autocomplete: 'off', oninput: (event: Event) => (guardianEmail = (event.target as HTMLInputElement).value.trim()) })), h('p', {}, label('age.guardianHint'))]
            : []),
        ),
      h('ul', { 'aria-label': context.labels('notice.purposes') }, ...purposes),
      words.rights && h('h3', {}, label('notice.rights')),
      words.rights && h('p', {}, words.rights),
      h('h3', {}, label('notice.complaints')),
      h('p', {}, words.complaint),
      h('h3', {}, label('notice.withdrawal')),
      withdrawal,
      contact,
      error,
      h(
        'div',
        { className: 'r' },
        button(label('acceptAll'), decide(() => true), true),
        button(label('rejectAll'), decide(() => false)),
        button(label('notice.saveChoices'), decide((purpose) => switches[purpose.id]?.checked)),
        reviewing && decision && (withdrawAll = button(label('notice.withdrawAll'), () => ((confirming = true), redraw()))),
        reviewing &&
          cookies &&
          button(label('notice.cookiePreferences'), () => {
            close();
            cookies.preferences();
          }),
        reviewing && button(label('close'), close),
      ),
    );
  };

  const { close: hide, redraw, show: open } = panelOf(ui, render);
  const close = () => {
    confirming = false;
    hide();
  };
  /** Back to the notice, nothing withdrawn, focus on "Withdraw all" again (a keyboard user is where she left). */
  function cancel() {
    confirming = false;
    redraw();
    withdrawAll?.focus();
  }
  const show = (review: boolean) => {
    reviewing = review;
    open(reviewing ? () => (confirming ? cancel() : close()) : undefined);
  };
  context.onLanguage.push(redraw);

  return {
    state,
    /** Re-prompt only when the consent on file predates the notice's material baseline. */
    needsPrompt: stale,
    show,
  };
};
