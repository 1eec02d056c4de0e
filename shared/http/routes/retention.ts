import { erasureAssetParams, erasurePage, erasureParams, erasureTaskView, erasuresQuery, resolveAssetBody, summaryQuery, summaryView, upcomingPage, upcomingQuery } from '../../retention/sweep-schemas';
import { activityBody, activityResult, maxActivities, retentionSettingsBody, retentionSettingsView, thirdScheduleView } from '../../retention/schemas';
import { sdkLimits } from './limits';
import type { RouteDefinition } from '../route';

const tags = ['Retention'];

/**
 * Extension (s.8(7) of the Act; rules 6 and 8 and the Third Schedule of the DPDP Rules, 2025):
 * the tenant's retention settings and the schedule as data. Each purpose's retention is on the
 * purpose (POST/PUT /purposes). docs/retention.md.
 */
export const retentionRoutes = {
  getRetentionSettings: {
    method: 'GET',
    path: '/api/v1/retention/settings',
    group: 'retention',
    auth: { kind: 'bearer', access: 'read' },
    summary: "The tenant's retention settings: its Third Schedule class and the notice principals get before an erasure",
    description: 'Extension. Defaults until saved: thirdScheduleClass null, noticeHours 0 (no notice).',
    tags,
    response: { status: 200, description: 'The settings', data: retentionSettingsView },
  },
  saveRetentionSettings: {
    method: 'PUT',
    path: '/api/v1/retention/settings',
    group: 'retention',
    auth: { kind: 'bearer', access: 'write' },
    summary: "Change the tenant's retention settings",
    description:
      'Extension. Merges: a field not sent keeps its value; each change is logged in the evidence log. A Third Schedule tenant gives at least 48 hours\' notice (rule 8(2)): entering the schedule raises noticeHours to 48 unless more is kept or sent, and less is 400 VALIDATION_ERROR naming noticeHours. Entering it while a purpose keeps data longer than P3Y from LAST_ACTIVITY without a thirdScheduleException is 400 VALIDATION_ERROR naming retention.',
    tags,
    request: { body: retentionSettingsBody },
    response: { status: 200, description: 'The settings as saved', data: retentionSettingsView },
  },
  getThirdSchedule: {
    method: 'GET',
    path: '/api/v1/retention/third-schedule',
    group: 'retention',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'The Third Schedule of the DPDP Rules, 2025: classes, thresholds, the period, the exceptions, with their sources',
    tags,
    response: { status: 200, description: 'The schedule', data: thirdScheduleView },
  },
  recordActivity: {
    method: 'POST',
    path: '/api/v1/principals/activity',
    group: 'retention',
    auth: { kind: 'apiKey', in: 'body', checkOrigin: false, secretKey: 'accepted' },
    limits: sdkLimits,
    summary: "Tell the service principals were active (a log-in, a contact): each LAST_ACTIVITY retention period starts again",
    description: `Extension (rule 8(1): the period runs from when the principal last approached the fiduciary or exercised her rights). Server to server: a secret key only (a publishable key is 403 FORBIDDEN: anyone can read it off a page, and could keep anyone's data from erasure). Up to ${maxActivities} activities; at may not be in the future (400 naming the item, and nothing is recorded). A consent, a withdrawal and a rights request count as activity without this call. Coalesced: at most one write per principal per UTC day, whatever the traffic. An activity before a due erasure cancels it (GET /retention/upcoming shows CANCELLED).`,
    tags,
    request: { body: activityBody },
    response: { status: 200, description: 'What was accepted and recorded', data: activityResult },
  },
  listRetentionUpcoming: {
    method: 'GET',
    path: '/api/v1/retention/upcoming',
    group: 'retention',
    auth: { kind: 'bearer', access: 'read' },
    summary: "Principals whose erasure is due from..to, by due time, and what became of each",
    description:
      "Extension (rule 8). Each principal's erasure at its due time: SCHEDULED, NOTICE_SENT (noticeSentAt set), CANCELLED (her activity before the due time) or EXPIRED (her consent for purposeIds lapsed); CANCELLED and EXPIRED entries stay 400 days. from..to bound dueAt (default: the next 30 days); from after to, or more than 366 days, is 400 VALIDATION_ERROR naming to. Page by nextCursor (reads only the next page) or page N (reads N pages), not both. Cost: one Query per month of the range a page touches (the tenant's own partition per month of dueAt), about 0.5 RCU per 4 KB read; a state filter reads the entries it skips.",
    tags,
    request: { query: upcomingQuery },
    response: { status: 200, description: 'A page of entries', data: upcomingPage },
  },
  getRetentionSummary: {
    method: 'GET',
    path: '/api/v1/retention/summary',
    group: 'retention',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'Per UTC day of from..to: erasures due, notices sent, cancellations by activity, expiries',
    description:
      "Extension. From counters the sweep adds to once per day it touched per pass (one item per tenant per day): one Query of at most 367 small items. Same range rules as /retention/upcoming. A summary: a crash in the middle of a sweep pass can leave a count short; the upcoming list and the evidence log are exact.",
    tags,
    request: { query: summaryQuery },
    response: { status: 200, description: 'The days', data: summaryView },
  },
  listRetentionErasures: {
    method: 'GET',
    path: '/api/v1/retention/erasures',
    group: 'retention',
    auth: { kind: 'bearer', access: 'read' },
    summary: "Erasure tasks: per sweep run, the data map's assets that hold the lapsed purposes' data",
    description:
      "Extension (s.8(7)). One task per run of the retention sweep (the principals of the tenant whose purposes lapsed together; their hashes are in the run's retention.erasure_due webhooks), listing the assets of the data map that hold those purposes' data, as the rights erasure checklist does. state OPEN (default) or RESOLVED, newest first; total from counters. Cost: one Query of the state's index partition (page N reads N × limit tasks) and one read of the counters.",
    tags,
    request: { query: erasuresQuery },
    response: { status: 200, description: 'A page of tasks', data: erasurePage },
  },
  getRetentionErasure: {
    method: 'GET',
    path: '/api/v1/retention/erasures/:id',
    group: 'retention',
    auth: { kind: 'bearer', access: 'read' },
    summary: 'One erasure task with its assets',
    description: "Extension. Another tenant's task is 404.",
    tags,
    request: { params: erasureParams },
    response: { status: 200, description: 'The task', data: erasureTaskView },
  },
  resolveRetentionErasureAsset: {
    method: 'POST',
    path: '/api/v1/retention/erasures/:id/assets/:assetId/resolve',
    group: 'retention',
    auth: { kind: 'bearer', access: 'write' },
    summary: "Mark one asset of an erasure task done: the run's principals' data there is erased",
    description:
      "Extension. Logged in the tenant's evidence log (retention.erasure-asset-resolved: who, when, the note's SHA-256); the task becomes RESOLVED when every asset is. Idempotent: an asset already resolved answers the task as it is and logs nothing. An asset not in the task, or another tenant's task, is 404.",
    tags,
    request: { params: erasureAssetParams, body: resolveAssetBody },
    response: { status: 200, description: 'The task', data: erasureTaskView },
  },
} as const satisfies Record<string, RouteDefinition>;
