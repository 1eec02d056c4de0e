import { describe, expect, it } from 'vitest';
import { contrastRatio, themeContrastFailures } from '../shared/cmp/contrast';
import { diffSnapshots } from '../shared/notices/diff';
import type { NoticeSnapshot } from '../shared/notices/notice';
import { materialBaselineOf } from '../shared/notices/public-notice';

const snapshot = (noticeId: string, versionNumber: number, dataCategories = ['email']): NoticeSnapshot => ({
  noticeId,
  lineageId: 'lineage-1',
  versionNumber,
  changeNote: null,
  publishedAt: '2026-01-01T00:00:00.000Z',
  publishedBy: 'dpo',
  title: `Notice v${versionNumber}`,
  introText: 'We process your data.',
  contactEmail: 'dpo@example.com',
  contactUrl: null,
  rightsText: 'You have rights.',
  complaintText: 'Complain to the Board.',
  withdrawalUrl: null,
  purposes: [{ id: 'p1', name: 'Orders', description: 'Orders', dataCategories, legalBasis: 'CONSENT', required: true, displayOrder: 0 }],
  translations: {},
});

describe('material baseline of a public notice', () => {
  const v1 = snapshot('n1', 1);
  const replaced = { id: 'n1', materialVersion: 1, materialNoticeId: 'n1' };

  it('starts at the first version', () => {
    expect(materialBaselineOf(v1, undefined, undefined, undefined)).toEqual({ materialVersion: 1, materialNoticeId: 'n1' });
  });

  it('is inherited through a wording change and reset by a material one', () => {
    const reworded = snapshot('n2', 2);
    expect(materialBaselineOf(reworded, diffSnapshots(v1, reworded), replaced, 'n1')).toEqual({ materialVersion: 1, materialNoticeId: 'n1' });
    const widened = snapshot('n3', 3, ['email', 'phone']);
    expect(materialBaselineOf(widened, diffSnapshots(v1, widened), replaced, 'n1')).toEqual({ materialVersion: 3, materialNoticeId: 'n3' });
  });

  it('starts again when the replaced notice is not the one diffed against, or carries no baseline (asking again is the safe side)', () => {
    const reworded = snapshot('n2', 2);
    const diff = diffSnapshots(v1, reworded);
    expect(materialBaselineOf(reworded, diff, replaced, 'other')).toEqual({ materialVersion: 2, materialNoticeId: 'n2' });
    expect(materialBaselineOf(reworded, diff, { id: 'n1' }, 'n1')).toEqual({ materialVersion: 2, materialNoticeId: 'n2' });
  });
});

describe('theme contrast', () => {
  it('computes WCAG ratios for every hex form', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#1a56db', '#ffffff')).toBeGreaterThan(4.5);
  });

  it('lists the failing pairs, never rounding a failure up to a pass', () => {
    expect(themeContrastFailures({ primaryColor: '#1a56db', backgroundColor: '#ffffff', textColor: '#111827' })).toEqual([]);
    expect(themeContrastFailures({ primaryColor: '#ffff00', backgroundColor: '#ffffff', textColor: '#777777' })).toEqual([
      { pair: 'textColor on backgroundColor', ratio: 4.47 },
      { pair: 'primaryColor on backgroundColor', ratio: 1.07 },
    ]);
  });
});
