import { createGroupHandler } from '../../shared/http/handler';
import { noticeRoutes } from '../../shared/http/routes/notices';
import { purposeRoutes } from '../../shared/http/routes/purposes';
import { wordsRoutes } from '../../shared/http/routes/words';
import { created, ok } from '../../shared/http/operation';
import { archiveNotice, createNotice, listNotices, readActiveNotice, readNotice, reviseNotice, updateNotice } from '../../shared/notices/service';
import { publishNotice } from '../../shared/notices/publish';
import { addTranslation, autoTranslate, listTranslations, previewNotice, removeTranslation, updateTranslation } from '../../shared/notices/translations';
import { diffNoticeVersions, listNoticeVersions } from '../../shared/notices/versions';
import { listNoticeAudit, setWithdrawalUrl } from '../../shared/notices/withdrawal-url';
import { createPurpose, listPurposes, readPurpose, updatePurpose } from '../../shared/purposes/service';
import { draftAllLanguages, draftLanguage, saveWords, setUnreviewed } from '../../shared/words/service';
import { readLanguageWords, wordsOverview } from '../../shared/words/views';

export const handler = createGroupHandler('notices', { ...noticeRoutes, ...purposeRoutes, ...wordsRoutes }, {
  createPurpose: async ({ caller, body }) => created(await createPurpose(caller.tenantId, body)),
  listPurposes: async ({ caller }) => ok(await listPurposes(caller.tenantId)),
  getPurpose: async ({ caller, params }) => ok(await readPurpose(caller.tenantId, params.id)),
  updatePurpose: async ({ caller, params, body }) => ok(await updatePurpose(caller.tenantId, params.id, body)),

  listNotices: async ({ caller, query }) => ok(await listNotices(caller.tenantId, query.includeArchived)),
  createNotice: async ({ caller, body }) => created(await createNotice(caller.tenantId, body)),
  getActiveNotice: async ({ caller }) => ok(await readActiveNotice(caller.tenantId)),
  getNotice: async ({ caller, params }) => ok(await readNotice(caller.tenantId, params.id)),
  updateNotice: async ({ caller, params, body }) => ok(await updateNotice(caller.tenantId, params.id, body)),
  publishNotice: async ({ caller, params, body }) =>
    ok(await publishNotice(caller.tenantId, params.id, body.changeNote ?? null, caller.userId)),
  archiveNotice: async ({ caller, params }) => ok(await archiveNotice(caller.tenantId, params.id)),
  reviseNotice: async ({ caller, params }) => created(await reviseNotice(caller.tenantId, params.id)),
  listNoticeVersions: async ({ caller, params }) => ok(await listNoticeVersions(caller.tenantId, params.id)),
  diffNoticeVersions: async ({ caller, params, query }) =>
    ok(await diffNoticeVersions(caller.tenantId, params.id, query.from, query.to)),
  previewNotice: async ({ caller, params, query }) => ok(await previewNotice(caller.tenantId, params.id, query.lang)),

  addNoticeTranslation: async ({ caller, params, body: { language, ...fields } }) =>
    created(await addTranslation(caller.tenantId, params.id, language, fields)),
  listNoticeTranslations: async ({ caller, params }) => ok(await listTranslations(caller.tenantId, params.id)),
  updateNoticeTranslation: async ({ caller, params, body }) =>
    ok(await updateTranslation(caller.tenantId, params.id, params.lang, body)),
  deleteNoticeTranslation: async ({ caller, params }) => ok(await removeTranslation(caller.tenantId, params.id, params.lang)),
  autoTranslateNotice: async ({ caller, params }) => ok(await autoTranslate(caller.tenantId, params.id)),

  setNoticeWithdrawalUrl: async ({ caller, params, body }) =>
    ok(
      body.withdrawalUrl === undefined
        ? await readNotice(caller.tenantId, params.id)
        : await setWithdrawalUrl(caller.tenantId, params.id, body.withdrawalUrl, caller.userId),
    ),
  listNoticeAudit: async ({ caller, params }) => ok(await listNoticeAudit(caller.tenantId, params.id)),

  getWordsOverview: async ({ caller }) => ok(await wordsOverview(caller.tenantId)),
  saveWordsSettings: async ({ caller, body }) => ok(await setUnreviewed(caller.tenantId, body.unreviewed)),
  getLanguageWords: async ({ caller, params }) => ok(await readLanguageWords(caller.tenantId, params.language)),
  saveLanguageWords: async ({ caller, params, body }) => ok(await saveWords(caller.tenantId, params.language, body.labels)),
  draftWords: async ({ caller, body }) => ok(await draftLanguage(caller.tenantId, body.language, body.replaceReviewed ?? false)),
  draftAllWords: async ({ caller }) => ok(await draftAllLanguages(caller.tenantId)),
});
