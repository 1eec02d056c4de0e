/**
 * Scripts the scanner runs inside tenants' pages, as source text: they run in the page's world,
 * not ours (and the project has no DOM types). Each must never throw.
 */

export interface PageState {
  hasCms: boolean;
  links: string[];
  localStorage: string[];
  sessionStorage: string[];
}

const keysOf = (storage: string) => `(() => { try { return Object.keys(window.${storage}); } catch { return []; } })()`;

export const pageStateScript = `({
  hasCms: typeof window.cms === 'object' && window.cms !== null,
  links: Array.from(document.querySelectorAll('a[href]'), (a) => a.href).slice(0, 500),
  localStorage: ${keysOf('localStorage')},
  sessionStorage: ${keysOf('sessionStorage')},
})`;

/**
 * Grants every category through this project's widget, tolerantly: a grant-all call if the API
 * offers one, else the cookie banner's primary (accept all) button inside the widget's shadow
 * root, opening the preferences first if no banner is showing. Resolves to whether it granted.
 */
export const grantAllScript = `(async () => {
  const cms = window.cms;
  if (typeof cms !== 'object' || cms === null) return false;
  for (const name of ['acceptAll', 'grantAll', 'allowAll']) {
    if (typeof cms[name] === 'function') { try { await cms[name](); return true; } catch { /* next */ } }
  }
  const acceptButton = () => {
    for (const host of document.querySelectorAll('[data-cms]')) {
      const root = host.shadowRoot || host;
      const button = root.querySelector('section[aria-labelledby="cms-c-t"] button.p');
      if (button) return button;
    }
    return null;
  };
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  for (let attempt = 0; attempt < 20 && !acceptButton(); attempt += 1) await wait(100);
  if (!acceptButton() && typeof cms.showCookiePreferences === 'function') { try { cms.showCookiePreferences(); } catch { /* ignore */ } await wait(300); }
  const button = acceptButton();
  if (!button) return false;
  button.click();
  return true;
})()`;
