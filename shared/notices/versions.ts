import { NotFoundError } from '../errors';
import { diffSnapshots } from './diff';
import type { NoticeSnapshot } from './notice';
import { getVersion, listVersions, requireNotice } from './store';

const versionView = ({ lineageId: _lineage, ...snapshot }: NoticeSnapshot) => snapshot;

/** Every published version of the notice's lineage, newest first. */
export const listNoticeVersions = async (tenantId: string, noticeId: string) => {
  const notice = await requireNotice(tenantId, noticeId);
  return (await listVersions(tenantId, notice.lineageId)).map(versionView);
};

export const diffNoticeVersions = async (tenantId: string, noticeId: string, from: number, to: number) => {
  const notice = await requireNotice(tenantId, noticeId);
  const [older, newer] = await Promise.all([getVersion(tenantId, notice.lineageId, from), getVersion(tenantId, notice.lineageId, to)]);
  if (!older) throw new NotFoundError(`Version ${from}`);
  if (!newer) throw new NotFoundError(`Version ${to}`);
  return { from, to, ...diffSnapshots(older, newer) };
};
