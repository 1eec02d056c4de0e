import { signal } from '@preact/signals';

/** Client routes live under /dashboard/ (the server and CloudFront answer every such path with index.html). */
export const base = '/dashboard';

const routeOf = (pathname: string): string => {
  const rest = pathname.startsWith(base) ? pathname.slice(base.length) : pathname;
  return rest.replace(/\/+$/, '') || '/';
};

/** The current route below /dashboard, `/` for the overview. */
export const route = signal(routeOf(location.pathname));
/** Set by a navigation, so the next screen's heading takes the focus (not on the first load). */
export const focusPending = signal(false);

export const hrefOf = (to: string): string => `${base}${to === '/' ? '/' : to}`;

export const navigate = (to: string, options: { replace?: boolean } = {}) => {
  const href = hrefOf(to);
  if (options.replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  focusPending.value = true;
  route.value = routeOf(href);
};

addEventListener('popstate', () => {
  focusPending.value = true;
  route.value = routeOf(location.pathname);
});
