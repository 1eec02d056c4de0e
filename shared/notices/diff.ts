import type { NoticeChange, NoticeSnapshot, NoticeTranslation, SnapshotPurpose } from './notice';

export const noticeTextFields = ['title', 'introText', 'contactEmail', 'contactUrl', 'rightsText', 'complaintText', 'withdrawalUrl'] as const;

const purposeFields = ['name', 'description', 'dataCategories', 'legalBasis', 'required', 'displayOrder'] as const;
const translationTextFields = ['title', 'introText', 'rightsText', 'complaintText'] as const;
const purposeTranslationFields = ['name', 'description'] as const;

/** Changing what data is collected, or on what legal ground, needs fresh consent; wording and layout do not. */
const materialPurposeFields: ReadonlySet<string> = new Set(['dataCategories', 'legalBasis']);

export interface NoticeDiff {
  changes: NoticeChange[];
  totalChanges: number;
  hasMaterialChange: boolean;
}

type Path = readonly string[];

/** The one place deciding materiality: a purpose added or removed, or a material field of a purpose changed. */
const isMaterial = ([root, , field]: Path): boolean =>
  root === 'purposes' && (field === undefined || materialPurposeFields.has(field));

const isAbsent = (value: unknown): boolean => value === null || value === undefined;

// The only lists compared are data categories, whose order means nothing.
const isSame = (a: unknown, b: unknown): boolean => {
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b;
  const setA = new Set(a);
  const setB = new Set(b);
  return setA.size === setB.size && [...setA].every((item) => setB.has(item));
};

const compare = (path: Path, oldValue: unknown, newValue: unknown): NoticeChange[] => {
  if (isSame(oldValue, newValue)) return [];
  const change = { field: path.join('.'), isMaterial: isMaterial(path) };
  if (isAbsent(oldValue)) return [{ ...change, type: 'added', newValue }];
  if (isAbsent(newValue)) return [{ ...change, type: 'removed', oldValue }];
  return [{ ...change, type: 'modified', oldValue, newValue }];
};

const compareFields = <T extends object>(path: Path, from: T, to: T, fields: readonly (keyof T & string)[]): NoticeChange[] =>
  fields.flatMap((field) => compare([...path, field], from[field], to[field]));

/** An entry on one side only is added or removed whole; an entry on both sides is compared inside. */
const compareEntries = <T extends object>(
  path: Path,
  ids: readonly string[],
  from: ReadonlyMap<string, T | undefined>,
  to: ReadonlyMap<string, T | undefined>,
  compareBoth: (path: Path, from: T, to: T) => NoticeChange[],
): NoticeChange[] =>
  ids.flatMap((id) => {
    const [oldEntry, newEntry] = [from.get(id), to.get(id)];
    return oldEntry && newEntry ? compareBoth([...path, id], oldEntry, newEntry) : compare([...path, id], oldEntry, newEntry);
  });

/** Keys of `to` in its order, then those only in `from`. */
const unionKeys = (from: ReadonlyMap<string, unknown>, to: ReadonlyMap<string, unknown>): string[] => [
  ...new Set([...to.keys(), ...from.keys()]),
];

const byId = (purposes: SnapshotPurpose[]): Map<string, SnapshotPurpose> => new Map(purposes.map((purpose) => [purpose.id, purpose]));

const entriesOf = <T>(record: Partial<Record<string, T>> | undefined): Map<string, T | undefined> => new Map(Object.entries(record ?? {}));

// Only the text is compared: `source` and `updatedAt` describe a translation, they are not what the notice says.
const compareTranslations = (path: Path, from: NoticeTranslation, to: NoticeTranslation): NoticeChange[] => {
  const [fromPurposes, toPurposes] = [entriesOf(from.purposes), entriesOf(to.purposes)];
  return [
    ...compareFields(path, from, to, translationTextFields),
    ...compareEntries([...path, 'purposes'], unionKeys(fromPurposes, toPurposes), fromPurposes, toPurposes, (purposePath, a, b) =>
      compareFields(purposePath, a, b, purposeTranslationFields),
    ),
  ];
};

export const diffSnapshots = (from: NoticeSnapshot, to: NoticeSnapshot): NoticeDiff => {
  const [fromPurposes, toPurposes] = [byId(from.purposes), byId(to.purposes)];
  const [fromTranslations, toTranslations] = [entriesOf(from.translations), entriesOf(to.translations)];
  const changes = [
    ...compareFields([], from, to, noticeTextFields),
    ...compareEntries(['purposes'], unionKeys(fromPurposes, toPurposes), fromPurposes, toPurposes, (path, a, b) =>
      compareFields(path, a, b, purposeFields),
    ),
    ...compareEntries(['translations'], unionKeys(fromTranslations, toTranslations).sort(), fromTranslations, toTranslations, compareTranslations),
  ];
  return { changes, totalChanges: changes.length, hasMaterialChange: changes.some((change) => change.isMaterial) };
};
