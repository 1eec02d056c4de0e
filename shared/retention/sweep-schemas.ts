import * as z from 'zod/mini';
import { described } from '../described';
import { entryStates } from './store';
import { taskStates } from './sweep-keys';
import { maxRangeDays } from './upcoming';

const range = {
  from: described(z.optional(z.iso.datetime({ offset: true })), 'ISO 8601 date-time; default now'),
  to: described(z.optional(z.iso.datetime({ offset: true })), `ISO 8601 date-time, not before from and at most ${maxRangeDays} days after it; default from + 30 days`),
};

export const upcomingQuery = /* @__PURE__ */ (() =>
  z.strictObject({
    ...range,
    state: described(z.optional(z.enum(entryStates)), 'Only entries in this state (a filter: the entries it skips are read too)'),
    cursor: described(z.optional(z.string().check(z.maxLength(2000))), 'The nextCursor of the previous page (not with page)'),
    page: described(z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(50))), 'Page N (1-based) of limit entries: reads N pages; not with cursor'),
    limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  }))();

export const upcomingPage = /* @__PURE__ */ z.lazy(() =>
  z.object({
    items: z.array(
      z.object({
        identifierHash: z.string(),
        purposeIds: z.array(z.string()),
        dueAt: z.iso.datetime(),
        noticeSentAt: z.nullable(z.iso.datetime()),
        state: described(z.enum(entryStates), 'SCHEDULED: due, no notice yet; NOTICE_SENT: noticed; CANCELLED: her activity cancelled it (kept 400 days); EXPIRED: her consent for the purposes lapsed (kept 400 days)'),
      }),
    ),
    page: z.number(),
    limit: z.number(),
    nextCursor: z.nullable(z.string()),
  }));

export const summaryQuery = /* @__PURE__ */ (() => z.strictObject(range))();

export const summaryView = /* @__PURE__ */ z.lazy(() =>
  z.object({
    days: z.array(
      z.object({
        date: described(z.string(), 'UTC day, YYYY-MM-DD'),
        due: described(z.number(), 'Principals whose erasure is due that day (scheduled, noticed or expired; not cancelled)'),
        noticesSent: described(z.number(), 'Notices sent that day'),
        cancelled: described(z.number(), 'Erasures cancelled by activity that day'),
        expired: described(z.number(), 'Principals whose consent lapsed that day'),
      }),
    ),
  }));

export const erasuresQuery = /* @__PURE__ */ (() =>
  z.strictObject({
    state: z._default(z.enum(taskStates), 'OPEN'),
    page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 1),
    limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20),
  }))();

export const erasureParams = /* @__PURE__ */ (() => z.strictObject({ id: z.uuid() }))();
export const erasureAssetParams = /* @__PURE__ */ (() => z.strictObject({ id: z.uuid(), assetId: z.uuid() }))();
export const resolveAssetBody = /* @__PURE__ */ (() =>
  z.strictObject({ note: described(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(1000))), 'What was done (logged as its SHA-256)') }))();

export const erasureTaskView = /* @__PURE__ */ z.lazy(() =>
  z.object({
    id: z.uuid(),
    runId: z.uuid(),
    createdAt: z.iso.datetime(),
    purposeIds: z.array(z.string()),
    principalCount: z.number(),
    assets: z.array(
      z.object({
        assetId: z.string(),
        name: z.string(),
        system: z.optional(z.string()),
        resolved: z.boolean(),
        resolvedAt: z.optional(z.iso.datetime()),
        resolvedBy: z.optional(described(z.string(), 'user:<userId>')),
        note: z.optional(z.string()),
      }),
    ),
    state: z.enum(taskStates),
    resolvedAt: z.optional(z.iso.datetime()),
  }));

export const erasurePage = /* @__PURE__ */ z.lazy(() => z.object({ items: z.array(erasureTaskView), total: z.number(), page: z.number(), limit: z.number() }));
