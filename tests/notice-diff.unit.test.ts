import { describe, expect, it } from 'vitest';
import { diffSnapshots } from '../shared/notices/diff';
import type { NoticeSnapshot, SnapshotPurpose } from '../shared/notices/notice';

const purpose = (id: string, displayOrder: number, overrides: Partial<SnapshotPurpose> = {}): SnapshotPurpose => ({
  id,
  name: `Purpose ${id}`,
  description: `Why we need ${id}`,
  dataCategories: ['email', 'phone'],
  legalBasis: 'CONSENT',
  required: false,
  displayOrder,
  ...overrides,
});

const base: NoticeSnapshot = {
  noticeId: 'notice-1',
  lineageId: 'lineage-1',
  versionNumber: 1,
  changeNote: null,
  publishedAt: '2025-01-01T00:00:00.000Z',
  publishedBy: 'admin@example.com',
  title: 'Privacy notice',
  introText: 'We process your data.',
  contactEmail: 'dpo@example.com',
  contactUrl: 'https://example.com/contact',
  rightsText: 'You have rights.',
  complaintText: 'Complain to the Board.',
  withdrawalUrl: null,
  purposes: [purpose('p1', 1), purpose('p2', 2)],
  translations: {
    HI: {
      title: 'गोपनीयता सूचना',
      introText: 'हम आपका डेटा संसाधित करते हैं।',
      purposes: { p1: { name: 'उद्देश्य 1', description: 'कारण 1' } },
      source: 'MANUAL',
      updatedAt: '2025-01-01T00:00:00.000Z',
    },
    TA: { title: 'தனியுரிமை அறிவிப்பு', source: 'MACHINE_DRAFTED', updatedAt: '2025-01-01T00:00:00.000Z' },
  },
};

/** A later version: a deep copy of `base` with the given changes. */
const next = (change: (snapshot: NoticeSnapshot) => void): NoticeSnapshot => {
  const snapshot = structuredClone(base);
  snapshot.versionNumber = 2;
  change(snapshot);
  return snapshot;
};

const purposeOf = (snapshot: NoticeSnapshot, id: string): SnapshotPurpose => {
  const found = snapshot.purposes.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no purpose ${id}`);
  return found;
};

const summary = (from: NoticeSnapshot, to: NoticeSnapshot) =>
  diffSnapshots(from, to).changes.map(({ field, type, isMaterial }) => ({ field, type, isMaterial }));

describe('diffSnapshots', () => {
  it('reports nothing for identical snapshots, ignoring version metadata', () => {
    const diff = diffSnapshots(base, next(() => {}));
    expect(diff).toEqual({ changes: [], totalChanges: 0, hasMaterialChange: false });
  });

  it('treats a title change as not material', () => {
    const diff = diffSnapshots(base, next((s) => (s.title = 'New privacy notice')));
    expect(diff.changes).toEqual([
      { field: 'title', type: 'modified', isMaterial: false, oldValue: 'Privacy notice', newValue: 'New privacy notice' },
    ]);
    expect(diff.totalChanges).toBe(1);
    expect(diff.hasMaterialChange).toBe(false);
  });

  it('reports withdrawalUrl going from null to a value as added, without an oldValue', () => {
    const diff = diffSnapshots(base, next((s) => (s.withdrawalUrl = 'https://example.com/withdraw')));
    expect(diff.changes).toHaveLength(1);
    expect(diff.changes[0]).toStrictEqual({
      field: 'withdrawalUrl',
      type: 'added',
      isMaterial: false,
      newValue: 'https://example.com/withdraw',
    });
  });

  it('reports contactUrl going from a value to null as removed, without a newValue', () => {
    const diff = diffSnapshots(base, next((s) => (s.contactUrl = null)));
    expect(diff.changes).toStrictEqual([
      { field: 'contactUrl', type: 'removed', isMaterial: false, oldValue: 'https://example.com/contact' },
    ]);
  });

  it('treats an added purpose as material, carrying the new purpose', () => {
    const added = purpose('p3', 3, { dataCategories: ['location'] });
    const diff = diffSnapshots(base, next((s) => s.purposes.push(added)));
    expect(diff.changes).toStrictEqual([{ field: 'purposes.p3', type: 'added', isMaterial: true, newValue: added }]);
    expect(diff.hasMaterialChange).toBe(true);
  });

  it('treats a removed purpose as material, carrying the old purpose', () => {
    const diff = diffSnapshots(base, next((s) => (s.purposes = s.purposes.filter((p) => p.id !== 'p2'))));
    expect(diff.changes).toStrictEqual([{ field: 'purposes.p2', type: 'removed', isMaterial: true, oldValue: purposeOf(base, 'p2') }]);
    expect(diff.hasMaterialChange).toBe(true);
  });

  it('treats changed dataCategories as material', () => {
    const to = next((s) => purposeOf(s, 'p1').dataCategories.push('aadhaar'));
    const diff = diffSnapshots(base, to);
    expect(summary(base, to)).toEqual([
      { field: 'purposes.p1.dataCategories', type: 'modified', isMaterial: true },
    ]);
    expect(diff.changes[0]?.newValue).toEqual(['email', 'phone', 'aadhaar']);
    expect(diff.hasMaterialChange).toBe(true);
  });

  it('treats dataCategories of the same size but different members as material', () => {
    const diff = diffSnapshots(base, next((s) => (purposeOf(s, 'p1').dataCategories = ['email', 'aadhaar'])));
    expect(diff.changes.map((c) => c.field)).toEqual(['purposes.p1.dataCategories']);
    expect(diff.hasMaterialChange).toBe(true);
  });

  it('ignores dataCategories that are only reordered', () => {
    const diff = diffSnapshots(base, next((s) => purposeOf(s, 'p1').dataCategories.reverse()));
    expect(diff).toEqual({ changes: [], totalChanges: 0, hasMaterialChange: false });
  });

  it('treats a changed legalBasis as material, with the exact change shape', () => {
    const diff = diffSnapshots(base, next((s) => (purposeOf(s, 'p2').legalBasis = 'LEGITIMATE_USE')));
    expect(diff.changes).toEqual([
      { field: 'purposes.p2.legalBasis', type: 'modified', isMaterial: true, oldValue: 'CONSENT', newValue: 'LEGITIMATE_USE' },
    ]);
    expect(diff.hasMaterialChange).toBe(true);
  });

  it('treats purpose name, description, required and displayOrder changes as not material', () => {
    const to = next((s) => {
      Object.assign(purposeOf(s, 'p1'), { name: 'Renamed', description: 'Reworded', required: true, displayOrder: 5 });
    });
    const diff = diffSnapshots(base, to);
    expect(summary(base, to)).toEqual(
      ['name', 'description', 'required', 'displayOrder'].map((field) => ({ field: `purposes.p1.${field}`, type: 'modified', isMaterial: false })),
    );
    expect(diff.changes[2]).toMatchObject({ oldValue: false, newValue: true });
    expect(diff.hasMaterialChange).toBe(false);
  });

  it('is material when a material change sits among non-material ones', () => {
    const diff = diffSnapshots(
      base,
      next((s) => {
        s.title = 'New title';
        purposeOf(s, 'p1').name = 'Renamed';
        purposeOf(s, 'p2').legalBasis = 'LEGITIMATE_USE';
      }),
    );
    expect(diff.changes.map((c) => c.isMaterial)).toEqual([false, false, true]);
    expect(diff.hasMaterialChange).toBe(true);
    expect(diff.totalChanges).toBe(3);
  });

  it('reports translations added, modified and removed as not material', () => {
    const to = next((s) => {
      const hindi = s.translations.HI!;
      hindi.title = 'नई गोपनीयता सूचना';
      hindi.purposes!.p1!.name = 'नया उद्देश्य 1';
      delete s.translations.TA;
      s.translations.BN = { title: 'গোপনীয়তা বিজ্ঞপ্তি', source: 'MACHINE_DRAFTED', updatedAt: '2025-02-01T00:00:00.000Z' };
    });
    const diff = diffSnapshots(base, to);
    expect(summary(base, to)).toEqual([
      { field: 'translations.BN', type: 'added', isMaterial: false },
      { field: 'translations.HI.title', type: 'modified', isMaterial: false },
      { field: 'translations.HI.purposes.p1.name', type: 'modified', isMaterial: false },
      { field: 'translations.TA', type: 'removed', isMaterial: false },
    ]);
    expect(diff.changes[0]?.newValue).toEqual(to.translations.BN);
    expect(diff.changes[2]).toMatchObject({ oldValue: 'उद्देश्य 1', newValue: 'नया उद्देश्य 1' });
    expect(diff.changes[3]?.oldValue).toEqual(base.translations.TA);
    expect(diff.hasMaterialChange).toBe(false);
  });

  it('ignores translation source and updatedAt', () => {
    const to = next((s) => {
      s.translations.HI!.source = 'MACHINE_DRAFTED';
      s.translations.HI!.updatedAt = '2025-03-01T00:00:00.000Z';
      s.translations.TA!.source = 'NEEDS_TRANSLATION';
    });
    expect(diffSnapshots(base, to).totalChanges).toBe(0);
  });

  it('orders text fields as listed, purposes by the new display order with removed ones last, translations by code', () => {
    const to = next((s) => {
      s.withdrawalUrl = 'https://example.com/withdraw';
      s.title = 'New title';
      s.purposes = [purpose('p3', 1), { ...purposeOf(s, 'p1'), name: 'Renamed', displayOrder: 2 }];
      s.translations.HI!.title = 'नई गोपनीयता सूचना';
      delete s.translations.TA;
      s.translations.AS = { title: 'গোপনীয়তা জাননী', source: 'MANUAL', updatedAt: '2025-02-01T00:00:00.000Z' };
    });
    expect(diffSnapshots(base, to).changes.map((c) => `${c.field}:${c.type}`)).toEqual([
      'title:modified',
      'withdrawalUrl:added',
      'purposes.p3:added',
      'purposes.p1.name:modified',
      'purposes.p1.displayOrder:modified',
      'purposes.p2:removed',
      'translations.AS:added',
      'translations.HI.title:modified',
      'translations.TA:removed',
    ]);
  });
});
