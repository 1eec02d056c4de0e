import * as z from 'zod/mini';
import { principalHashSchema } from '../consent/schemas';
import { described } from '../described';
import { durationSchema } from './duration';
import { retentionStarts } from './starts';
import { thirdScheduleClassIds, thirdScheduleExceptionIds } from './third-schedule';


export const retentionSchema = /* @__PURE__ */ (() =>
  described(
    z.strictObject({
      period: described(durationSchema, 'ISO 8601 duration, at least PT1M and at most P100Y (P3Y, P6M, P90D)'),
      from: described(
        z.enum(retentionStarts),
        "LAST_ACTIVITY: the principal's last activity (a consent, a withdrawal, a rights request, a confirmed page visit, or POST /principals/activity); CONSENT: her latest consent to the purpose; WITHDRAWAL: her withdrawal or refusal of it",
      ),
      legalHold: z.optional(described(z.string().check(z.trim(), z.minLength(3), z.maxLength(500)), 'The law that requires the data to be kept, in words (s.8(7): "unless retention is necessary for compliance with any law")')),
    }),
    'Extension (s.8(7), rule 8): how long the purpose\'s data is kept. Absent: no erasure is scheduled for it',
  ))();

export const thirdScheduleExceptionSchema = /* @__PURE__ */ (() =>
  described(
    z.nullable(z.enum(thirdScheduleExceptionIds)),
    'Extension (Third Schedule, column (3)): USER_ACCOUNT_ACCESS (a) or VIRTUAL_TOKEN_ACCESS (b), purposes the three years do not bound; null otherwise',
  ))();

export const retentionSettingsFields = /* @__PURE__ */ (() => ({
  thirdScheduleClass: described(z.nullable(z.enum(thirdScheduleClassIds)), 'The Third Schedule class the tenant is in (rule 8(1)), or null'),
  noticeHours: described(z.number().check(z.int(), z.gte(0), z.lte(720)), 'Hours of notice before an erasure (rule 8(2)): at least 48 for a Third Schedule tenant; 0 sends none'),
}))();

export const retentionSettingsBody = /* @__PURE__ */ (() =>
  z.strictObject({
    thirdScheduleClass: z.optional(retentionSettingsFields.thirdScheduleClass),
    noticeHours: z.optional(retentionSettingsFields.noticeHours),
  }))();

export const retentionSettingsView = /* @__PURE__ */ z.lazy(() => z.object({
    ...retentionSettingsFields,
    updatedAt: z.nullable(z.iso.datetime()),
    updatedBy: z.nullable(z.string()),
  }));

export const thirdScheduleView = /* @__PURE__ */ z.lazy(() => z.object({
    classes: z.array(z.object({ id: z.string(), serial: z.number(), class: z.string(), registeredUsersAtLeast: z.number(), definition: z.string(), period: z.string() })),
    exceptions: z.array(z.object({ id: z.string(), clause: z.string(), purpose: z.string() })),
    noticeHours: z.number(),
    rulesCommencement: z.iso.datetime(),
    logRetentionDays: z.number(),
    sources: z.record(z.string(), z.object({ title: z.string(), url: z.string() })),
  }));

export const maxActivities = 1000;

export const activityBody = /* @__PURE__ */ (() =>
  z.strictObject({
    apiKey: z.string().check(z.maxLength(200)),
    activities: described(
      z
        .array(
          z.strictObject({
            identifierHash: principalHashSchema,
            at: described(z.iso.datetime({ offset: true }), 'When the principal logged in, contacted the tenant or used the purpose; not in the future'),
          }),
        )
        .check(z.minLength(1), z.maxLength(maxActivities)),
      `Up to ${maxActivities} activities`,
    ),
  }))();

export const activityResult = /* @__PURE__ */ z.lazy(() => z.object({
    accepted: described(z.number(), 'Activities accepted (all of them: a batch with one invalid item is 400 and records none)'),
    principals: described(z.number(), 'Distinct principals among them'),
    recorded: described(z.number(), "Principals whose last activity moved on (at most one write per principal per UTC day: a later time of a day already recorded is coalesced)"),
  }));
