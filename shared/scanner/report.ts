import type { Tracker } from '../cmp/document';
import { trackerKey } from '../cmp/document';
import { normaliseFoundName, normaliseTrackerDomain } from '../cmp/tracker-key';
import { classify, sameSite } from './classify';
import type { CookieDatabase } from './cookie-database';
import type { Observation } from './crawl';
import type { Finding } from './run';

/** Report bounds, so a report stays one DynamoDB item whatever a site sets. */
export const maxFindings = 500;
const maxPagesPerFinding = 30;

const canonicalHost = (host: string): string => normaliseTrackerDomain(host) ?? host;

const findingKey = (observation: Pick<Observation, 'kind' | 'name' | 'domain'>) => `${observation.kind}\u0000${observation.name ?? ''}\u0000${observation.domain}`;

/**
 * One finding per (kind, name, domain): the pages where it was seen, whether it was seen before
 * consent, and its classification against the registry as it stood before the run.
 */
export const buildFindings = (observations: readonly Observation[], registry: readonly Tracker[], database: CookieDatabase): Finding[] => {
  const grouped = new Map<string, { first: Observation; pages: Set<string>; beforeConsent: boolean }>();
  // Domains in the registry's own form (`[::1]` and `::1`, `localhost.` and `localhost` are one).
  for (const observation of observations.map((seen) => ({ ...seen, domain: canonicalHost(seen.domain) }))) {
    const key = findingKey(observation);
    const entry = grouped.get(key) ?? { first: observation, pages: new Set<string>(), beforeConsent: false };
    entry.pages.add(observation.page);
    entry.beforeConsent ||= observation.beforeConsent;
    grouped.set(key, entry);
  }
  const findings = [...grouped.values()].map(({ first, pages, beforeConsent }): Finding => {
    const classification = classify(first, registry, database);
    return {
      kind: first.kind,
      name: first.name,
      domain: first.domain,
      ...classification,
      firstParty: sameSite(first.domain, canonicalHost(new URL(first.page).hostname)),
      pages: [...pages].slice(0, maxPagesPerFinding),
      setBeforeConsent: beforeConsent,
      declared: classification.classifiedBy === 'REGISTRY',
    };
  });
  // Violations first, then by domain and name, so a cut keeps what matters most.
  findings.sort(
    (a, b) =>
      Number(b.setBeforeConsent && b.category !== 'NECESSARY') - Number(a.setBeforeConsent && a.category !== 'NECESSARY') ||
      a.domain.localeCompare(b.domain) ||
      (a.name ?? '').localeCompare(b.name ?? ''),
  );
  return fitReport(findings.slice(0, maxFindings));
};

/** A report's stored size limit (DynamoDB items hold 400 KB). */
export const maxReportBytes = 350_000;

/**
 * Long page URLs on many findings could still overflow the item: pages are then cut to the first
 * one, and as a last resort findings are dropped from the end (the least important, by the order above).
 */
const fitReport = (findings: Finding[]): Finding[] => {
  if (Buffer.byteLength(JSON.stringify(findings)) <= maxReportBytes) return findings;
  const kept: Finding[] = [];
  let bytes = 2; // the array's brackets
  for (const finding of findings) {
    const cut = { ...finding, pages: finding.pages.slice(0, 1) };
    bytes += Buffer.byteLength(JSON.stringify(cut)) + 1;
    if (bytes > maxReportBytes) break;
    kept.push(cut);
  }
  return kept;
};

/**
 * The registry entry a scanner finding becomes (declaredByAdmin false, the first page as location),
 * keyed exactly as PUT and DELETE /cmp/trackers key theirs (shared/cmp/tracker-key.ts), so every
 * entry the scanner adds can be removed. Null when the finding cannot be a registry entry (a host
 * no request could name, a cookie with an empty name): it stays in the report only.
 */
export const trackerOf = (finding: Finding): Tracker | null => {
  const domain = normaliseTrackerDomain(finding.domain);
  const cookieName = finding.name === null ? undefined : normaliseFoundName(finding.name);
  if (domain === null || cookieName === null) return null;
  return {
    domain,
    ...(cookieName !== undefined ? { cookieName } : {}),
    category: finding.category,
    ...(finding.vendor ? { vendor: finding.vendor.slice(0, 200) } : {}),
    ...(finding.pages[0] ? { location: finding.pages[0].slice(0, 500) } : {}),
    declaredByAdmin: false,
  };
};

/**
 * The undeclared findings, one per registry key (a cookie and a storage key may share one); a
 * finding that can be no registry entry is new and undeclared too, counted under its own key.
 */
export const undeclared = (findings: readonly Finding[]): Finding[] => {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const tracker = trackerOf(finding);
    const key = tracker ? trackerKey(tracker) : `unkeyed\u0000${findingKey(finding)}`;
    if (finding.declared || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};
