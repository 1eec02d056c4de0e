import { retentionSettingsBody, retentionSettingsView, thirdScheduleView } from '../../retention/schemas';
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
} as const satisfies Record<string, RouteDefinition>;
