import type * as z from 'zod/mini';
import { clock, nowIso } from '../clock';
import { etagMatches } from '../etag';
import { newId, newTimeOrderedId } from '../ids';
import type { serverEventBody, webEventBody } from './visitor-schemas';
import { CmpNotConfiguredError } from './not-configured';
import { appendServerEvent, appendWebEvent, countDailyEvents, readPublicBody, readSettings, readSettingsAndVisitorState, type CmpSettings } from './visitor-store';
import {
  consentStatusOf,
  serverEventCounters,
  stateCategories,
  webEventCounters,
  type ConsentStatus,
  type ServerEventEntry,
  type WebEventEntry,
} from './visitor';

/**
 * The visitor-facing endpoints need a saved configuration. A collect-only tenant can never save
 * one, so its absence answers both of the spec's CMP_NOT_CONFIGURED cases in one small read.
 */
const notConfigured = () => new CmpNotConfiguredError('no configuration has been saved');

const requireSettings = async (tenantId: string): Promise<CmpSettings> => {
  const settings = await readSettings(tenantId);
  if (!settings) throw notConfigured();
  return settings;
};

/** The public GET: the body stored at the last change, or 304 when the caller's copy is current. */
export const publicConfig = async (tenantId: string, ifNoneMatch: string | undefined) => {
  const stored = await readPublicBody(tenantId);
  if (!stored?.configured) throw notConfigured();
  return { body: stored.body, etag: stored.etag, notModified: etagMatches(ifNoneMatch, stored.etag) };
};

/** One banner decision: an append-only audit entry, the visitor's new state and the day's counters. */
export const recordWebEvent = async (input: z.output<typeof webEventBody>, meta: { ip: string; userAgent: string | undefined }) => {
  const settings = await requireSettings(input.tenantId);
  const visitorId = input.consentRecordId ?? newId();
  const createdAt = nowIso();
  const child = input.principalStatus === 'ADULT' ? undefined : input.principalStatus;
  const entry: WebEventEntry = {
    entryId: newTimeOrderedId(clock.now()),
    tenantId: input.tenantId,
    visitorId,
    channel: 'WEB_COOKIE',
    event: input.event,
    categories: input.categories,
    ipAddress: meta.ip,
    userAgent: meta.userAgent ?? null,
    widgetVersion: input.widgetVersion ?? null,
    configRevision: settings.revision,
    createdAt,
    ...(child ? { principalStatus: child } : {}),
  };
  await appendWebEvent(
    entry,
    {
      tenantId: input.tenantId,
      visitorId,
      categories: stateCategories(input.event, input.categories),
      withdrawn: input.event === 'COOKIE_CONSENT_WITHDRAWN',
      lastEvent: input.event,
      lastUpdated: createdAt,
      lastEntryId: entry.entryId,
      ...(child ? { principalStatus: child } : {}),
    },
  );
  await countDailyEvents(input.tenantId, createdAt.slice(0, 10), webEventCounters(input.event, input.categories, child !== undefined));
  return { recorded: true as const, consentRecordId: visitorId };
};

/** One BatchGet of the settings and the visitor's state: reconsentDays is never older than this request. */
export const visitorConsentStatus = async (tenantId: string, visitorId: string): Promise<ConsentStatus> => {
  const { settings, state } = await readSettingsAndVisitorState(tenantId, visitorId);
  if (!settings) throw notConfigured();
  return consentStatusOf(visitorId, state, settings.reconsentDays, clock.now());
};

/** Logs a server-side tracker call, judged against what the visitor's state allows right now. */
export const logServerEvent = async (tenantId: string, apiKeyId: string, input: z.output<typeof serverEventBody>) => {
  const status = await visitorConsentStatus(tenantId, input.visitorId);
  const allowed = status.categories[input.category] === true;
  const entry: ServerEventEntry = {
    entryId: newTimeOrderedId(clock.now()),
    tenantId,
    visitorId: input.visitorId,
    channel: 'SERVER_SIDE',
    trackerName: input.trackerName,
    fired: input.fired,
    category: input.category,
    allowed,
    firedWithoutConsent: input.fired && !allowed,
    apiKeyId,
    createdAt: nowIso(),
  };
  await appendServerEvent(entry);
  await countDailyEvents(tenantId, entry.createdAt.slice(0, 10), serverEventCounters(entry));
  return {
    id: entry.entryId,
    visitorId: entry.visitorId,
    trackerName: entry.trackerName,
    fired: entry.fired,
    category: entry.category,
    allowed,
    firedWithoutConsent: entry.firedWithoutConsent,
    createdAt: entry.createdAt,
  };
};
