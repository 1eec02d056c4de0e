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
} as const satisfies Record<string, RouteDefinition>;
