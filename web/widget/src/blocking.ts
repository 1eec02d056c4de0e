/**
 * Prior blocking: tags marked with a category stay inert until it is granted.
 * <script type="text/plain" data-category="ANALYTICS" [data-src="…"]> runs as a fresh script
 * element (with the page's nonce, so a strict CSP still applies); <iframe data-category data-src>
 * gets its src.
 */
export const activate = (granted: Record<string, boolean>): void => {
  document.querySelectorAll<HTMLScriptElement>('script[type="text/plain"][data-category]').forEach((inert) => {
    if (!granted[(inert.dataset.category ?? '').toUpperCase()]) return;
    const live = document.createElement('script');
    for (const attribute of Array.from(inert.attributes)) {
      if (attribute.name !== 'type' && attribute.name !== 'data-src') live.setAttribute(attribute.name, attribute.value);
    }
    if (inert.nonce) live.nonce = inert.nonce;
    if (inert.dataset.src) live.src = inert.dataset.src;
    else live.text = inert.text;
    live.dataset.activated = '';
    inert.replaceWith(live);
  });
  document.querySelectorAll<HTMLIFrameElement>('iframe[data-category][data-src]').forEach((frame) => {
    if (granted[(frame.dataset.category ?? '').toUpperCase()] && !frame.src) frame.src = frame.dataset.src ?? '';
  });
};

/** Expires a first-party cookie on this host and each parent domain, wherever a tracker may have set it. */
export const deleteCookie = (name: string): void => {
  const parts = location.hostname.split('.');
  const domains = [''];
  for (let index = 0; index < parts.length - 1; index += 1) domains.push(`;domain=.${parts.slice(index).join('.')}`);
  for (const domain of domains) document.cookie = `${name}=;max-age=0;path=/${domain}`;
};
