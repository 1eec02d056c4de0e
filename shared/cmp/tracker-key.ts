/**
 * A tracker's registry key (domain, cookieName), written the same way whoever writes it: a person
 * through PUT and DELETE /cmp/trackers (shared/cmp/schemas.ts), or the scanner adding what it found
 * (shared/scanner/report.ts trackerOf). Whatever the scanner can put in the registry, DELETE can
 * take out again: a domain such as `::1`, `[::1]` or `localhost.` once could not be named in a
 * DELETE body (400), and so could never be removed. Pure and free of Node APIs (URL only).
 */

/** The longest cookieName (or storage key) a registry entry holds. */
export const maxTrackerNameLength = 200;

const ipv6Chars = /^[0-9a-f:.]+$/;
/** Letters of any script (an IDN becomes punycode below), digits, `_`, `-` and dots. */
const hostChars = /^[\p{L}\p{M}\p{N}_.-]+$/u;
/** An ASCII host name (`_` allowed: cookie domains carry it) or a dotted IPv4 address, 253 characters at most. */
const asciiHost = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** The WHATWG URL parser's own form of a host (punycode, canonical IPv4 and IPv6), or null when it refuses it. */
const hostnameOf = (host: string): string | null => {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
};

/**
 * A tracker's domain in its one canonical form, or null when it is no host: lower-case; a cookie
 * domain's leading dot and a fully qualified name's trailing dot dropped; an IPv6 address bare (no
 * brackets) and compressed; an international name as punycode. Idempotent.
 */
export const normaliseTrackerDomain = (raw: string): string | null => {
  const host = raw.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host.includes(':')) {
    if (!ipv6Chars.test(host)) return null;
    return hostnameOf(`[${host}]`)?.slice(1, -1) ?? null;
  }
  const bare = host.replace(/^\.+/, '').replace(/\.+$/, '');
  if (!hostChars.test(bare) || bare.includes('..')) return null;
  const canonical = hostnameOf(bare);
  return canonical !== null && asciiHost.test(canonical) ? canonical : null;
};

const controlCharacters = /\p{Cc}/gu;
const loneSurrogates = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A found cookie name or storage key as a registry cookieName that a person can send back in a
 * DELETE body (the schema's rule: trimmed, 1-200 characters, no control characters): control
 * characters and lone surrogates become U+FFFD, and it is cut to the limit without splitting a
 * character. Null when nothing is left (a cookie with an empty name): such a find stays in the
 * report but is not added to the registry, where an entry without cookieName means the whole domain.
 */
export const normaliseFoundName = (raw: string): string | null => {
  const cut = raw.replace(loneSurrogates, '\uFFFD').replace(controlCharacters, '\uFFFD').trim().slice(0, maxTrackerNameLength).replace(/[\uD800-\uDBFF]$/, '').trim();
  return cut.length > 0 ? cut : null;
};
