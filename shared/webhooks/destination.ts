/**
 * The one place that decides where webhooks may be sent, and sends them.
 *
 * Webhook URLs are tenant input, so a careless sender is a server-side request forgery tool:
 * it would let a tenant reach the metadata service, the VPC or our own loopback. Addresses are
 * therefore checked twice: when the URL is saved (checkDestination) and again inside the
 * socket's own DNS lookup at send time (sendWebhook), because a name that resolved to a public
 * address at save time can resolve to 127.0.0.1 a minute later (DNS rebinding).
 */
import http from 'node:http';
import https from 'node:https';
import { ValidationError } from '../errors';
import { localHosts } from '../net/address-policy';
import { bareHost, forbiddenCode, guardedLookup, literalRefused, resolveAllowed, type LocalException } from '../net/guarded-lookup';

/** The webhooks' local exception: only the local stack (allowLocal = config.isLocal), only towards this machine. */
const localStack = (allowLocal: boolean): LocalException => (host) => allowLocal && localHosts.has(host);

/**
 * Save-time check of a webhook URL. Callers pass allowLocal = config.isLocal, so only the local
 * stack may use http, and only towards this machine.
 */
export const checkDestination = async (url: string, options: { allowLocal: boolean }): Promise<void> => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError({ url: 'must be a valid URL' });
  }
  // WHATWG parsing has already normalised odd IPv4 spellings (0x7f.1, 2130706433) to dotted quads.
  const host = bareHost(parsed.hostname);
  if (parsed.username !== '' || parsed.password !== '') {
    throw new ValidationError({ url: 'must not contain a username or password' });
  }
  const localHttp = options.allowLocal && parsed.protocol === 'http:' && localHosts.has(host);
  if (parsed.protocol !== 'https:' && !localHttp) throw new ValidationError({ url: 'must use https' });
  try {
    await resolveAllowed(host, localStack(options.allowLocal));
  } catch (error) {
    const forbidden = (error as NodeJS.ErrnoException).code === forbiddenCode;
    const reason = forbidden ? 'must not point to a private, loopback or reserved address' : 'host does not resolve';
    throw new ValidationError({ url: reason }, undefined, error);
  }
};

const maxResponseBytes = 64 * 1024;

const messageOf = (error: unknown): string => {
  // Failed happy-eyeballs attempts surface as an AggregateError whose own message is empty.
  if (error instanceof AggregateError && error.message === '') return error.errors.map(messageOf).join('; ');
  return error instanceof Error ? error.message || String((error as NodeJS.ErrnoException).code) : String(error);
};

/**
 * One POST of `body` (exactly these bytes, since receivers verify a signature over them).
 * Never throws and never follows redirects: a 3xx comes back as its status for the caller to
 * count as a failure. Scheme policy is checkDestination's job at save time; here the check is on
 * where the socket actually connects.
 */
export const sendWebhook = (
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowLocal: boolean },
): Promise<{ statusCode: number | null; error: string | null }> =>
  new Promise((resolve) => {
    let settled = false;
    const settle = (statusCode: number | null, error: string | null): void => {
      if (settled) return;
      settled = true;
      resolve({ statusCode, error });
    };
    let parsed: URL;
    try {
      parsed = new URL(url);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`unsupported protocol ${parsed.protocol}`);
      if (parsed.username !== '' || parsed.password !== '') throw new Error('URL must not contain credentials');
      // Node connects to IP literals without calling `lookup`, so they are checked here instead.
      const host = bareHost(parsed.hostname);
      if (literalRefused(host, localStack(options.allowLocal))) {
        throw new Error(`${host} is a forbidden address`);
      }
    } catch (error) {
      return settle(null, messageOf(error));
    }
    const payload = Buffer.from(body, 'utf8');
    const request = (parsed.protocol === 'https:' ? https : http).request(parsed, {
      method: 'POST',
      // Ours last, so a caller's header cannot override the type or length of what we send.
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(payload.length) },
      lookup: guardedLookup(localStack(options.allowLocal)),
      agent: false, // a pooled socket could skip the lookup; a fresh agent always runs it
    });
    // One budget for connect, send and response; destroying the request also ends the response.
    const timer = setTimeout(() => {
      settle(null, `timeout after ${options.timeoutMs} ms`);
      request.destroy();
    }, options.timeoutMs);
    request.on('response', (response) => {
      // Drain up to the cap so the socket is released; the content is of no interest.
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxResponseBytes) response.destroy();
      });
      // 'close' also covers a body cut short, by the cap or by the receiver: the status stands.
      response.on('close', () => {
        clearTimeout(timer);
        settle(response.statusCode ?? null, null);
      });
      response.on('error', () => undefined); // reported via 'close'; must not crash the process
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      settle(null, messageOf(error));
    });
    request.end(payload);
  });
