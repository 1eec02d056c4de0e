/** The embed contract: everything the widget learns from its own <script> tag. */
export interface Embed {
  apiKey: string;
  tenantId: string;
  apiBase: string;
  notice: boolean;
  cookies: boolean;
  language: string | undefined;
  position: string | undefined;
  /** The visitor told the notice banner she is under 18: the cookie banner's choices are a child's (s.9). */
  minor?: boolean;
}

export const readEmbed = (): Embed | undefined => {
  // currentScript is set while an async classic script runs; the selector covers odd loaders.
  const tag = (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>('script[data-api-key][src*="cms.js"]');
  const data = tag?.dataset;
  if (!data?.apiKey || !data.apiBase) return undefined;
  return {
    apiKey: data.apiKey,
    tenantId: data.tenantId ?? '',
    apiBase: data.apiBase.replace(/\/+$/, ''),
    notice: data.notice !== 'off',
    cookies: data.cookies !== 'off' && !!data.tenantId,
    language: data.language?.toUpperCase(),
    position: data.position,
  };
};

/** localStorage that never throws (blocked storage, private mode, quota): the widget degrades to asking again. */
export const load = <T>(key: string): T | undefined => {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
};

export const save = (key: string, value: unknown): void => {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Nothing to do: the decision still holds for this page and was recorded by the service.
  }
};

export interface Reply<T> {
  status: number;
  data?: T;
  /** Seconds a cache held the answer (its Age header). */
  age?: number;
}

/**
 * One API call; network failures and non-JSON answers come back as status 0, never thrown. A GET
 * is always revalidated (If-None-Match, from the browser's cache): only the edge decides how old an
 * answer may be.
 */
export const call = async <T>(url: string, body?: unknown): Promise<Reply<T>> => {
  try {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'omit',
      cache: 'no-cache',
    });
    return { status: response.status, data: ((await response.json()) as { data?: T }).data, age: +response.headers.get('age')! };
  } catch {
    return { status: 0 };
  }
};

type Handler = (detail: unknown) => void;
const events = ['consent', 'change', 'withdraw', 'ready'];
// Keyed by whatever a host page passes to cms.on: a Map, so `constructor` or `__proto__` is just an unknown event.
const handlers = new Map<string, Handler[]>();

export const on = (event: string, handler: Handler): void => {
  if (typeof handler !== 'function' || !events.includes(event)) return;
  handlers.set(event, [...(handlers.get(event) ?? []), handler]);
};

/** To listeners registered through cms.on and as a cms:<event> CustomEvent on window; a throwing listener never stops the others. */
export const emit = (event: string, detail: unknown): void => {
  for (const handler of handlers.get(event) ?? []) {
    try {
      handler(detail);
    } catch {
      // A tenant's listener failing is not the widget's failure.
    }
  }
  window.dispatchEvent(new CustomEvent(`cms:${event}`, { detail }));
};
