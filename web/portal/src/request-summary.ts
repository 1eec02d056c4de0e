import { h } from './dom';
import type { AccessSummary } from './rights-api';
import { t, timeOf, type PageState } from './shell';

const none = (state: PageState) => h('p', { class: 'muted' }, t(state, 'rights.noneListed'));
const names = (items: { name: string }[]) => items.map((item) => item.name).join(', ');

/**
 * The s.11 summary as readable sections: the principal's consent, what their data is used for and
 * where it is held, who it is shared with, their nominees; and the same as a JSON file to keep.
 * Names come from the tenant (dir="auto": they may be in another script than the page).
 */
export const summarySection = (state: PageState, summary: AccessSummary, tenant: string, requestId: string): HTMLElement => {
  const download = h('a', { href: URL.createObjectURL(new Blob([JSON.stringify(summary, null, 2)], { type: 'application/json' })), download: `access-summary-${requestId}.json` }, t(state, 'rights.downloadSummary'));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'summary-heading' },
    h('h2', { id: 'summary-heading' }, t(state, 'rights.summaryHeading')),
    h('p', {}, t(state, 'rights.summaryIntro', { tenant }), ' ', timeOf(state, summary.generatedAt)),
    h('h3', {}, t(state, 'rights.recordsHeading')),
    summary.records.length === 0
      ? none(state)
      : h(
          'ul',
          { class: 'purposes' },
          ...summary.records.map((record) =>
            h(
              'li',
              {},
              h('h4', { dir: 'auto' }, t(state, 'rights.noticeVersion', { notice: record.noticeTitle, version: record.noticeVersion })),
              h(
                'dl',
                { class: 'facts' },
                h('dt', {}, t(state, 'rights.givenOn')),
                h('dd', {}, timeOf(state, record.givenAt)),
                h('dt', {}, t(state, 'rights.shownIn')),
                h('dd', {}, record.language),
                h('dt', {}, t(state, 'rights.purposesGranted')),
                h('dd', { dir: 'auto' }, names(record.purposesGranted) || '—'),
                ...(record.purposesWithdrawn.length > 0 ? [h('dt', {}, t(state, 'rights.purposesWithdrawnLabel')), h('dd', { dir: 'auto' }, names(record.purposesWithdrawn), ...(record.withdrawnAt ? [' (', timeOf(state, record.withdrawnAt), ')'] : []))] : []),
              ),
            ),
          ),
        ),
    h('h3', {}, t(state, 'rights.usesHeading')),
    summary.purposes.length === 0
      ? none(state)
      : h(
          'ul',
          { class: 'purposes' },
          ...summary.purposes.map((purpose) =>
            h(
              'li',
              {},
              h('h4', { dir: 'auto' }, purpose.name),
              h(
                'dl',
                { class: 'facts' },
                h('dt', {}, t(state, 'rights.dataLabel')),
                h('dd', { dir: 'auto' }, purpose.dataCategories.join(', ')),
                h('dt', {}, t(state, 'rights.heldIn')),
                h(
                  'dd',
                  { dir: 'auto' },
                  ...(purpose.assets.length === 0
                    ? ['—']
                    : purpose.assets.flatMap((asset, index) => [index > 0 ? '; ' : '', `${asset.name} (${asset.location || asset.system})`, ...(asset.retentionDays ? [', ', t(state, 'rights.keptFor', { days: asset.retentionDays })] : [])])),
                ),
              ),
            ),
          ),
        ),
    h('h3', {}, t(state, 'rights.sharedHeading')),
    summary.sharedWith.length === 0
      ? none(state)
      : h(
          'ul',
          { class: 'purposes' },
          ...summary.sharedWith.map((recipient) =>
            h(
              'li',
              {},
              h('h4', { dir: 'auto' }, recipient.name),
              h('p', { class: 'muted' }, t(state, `rights.role_${recipient.role}`, { tenant }), `, ${recipient.country}`),
              h('p', {}, t(state, 'rights.dataLabel'), ': ', h('span', { dir: 'auto' }, recipient.dataCategories.join(', '))),
            ),
          ),
        ),
    h('h3', {}, t(state, 'rights.nomineesHeading')),
    summary.nominees.length === 0 ? none(state) : h('ul', {}, ...summary.nominees.map((nominee) => h('li', { dir: 'auto' }, `${nominee.name} (${nominee.relationship})`))),
    h('p', {}, download),
  );
};
