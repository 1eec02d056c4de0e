import { pageWords } from '../../../shared/words/page-words';
import { h } from './dom';
import { guardianPage } from './guardian-page';
import { publicPage } from './public-page';
import { requestPage } from './request-page';
import { tokenPage } from './token-page';

/**
 * One page, three routes: `/portal/t/<tenant slug>` asks for a withdrawal link by email and takes
 * rights requests, `/portal/<token>` is a withdrawal link, `/portal/r/<token>` a rights request's
 * link, `/portal/g/<token>` a parent's or guardian's link. The server answers every /portal/ path with this page.
 */
const route = (pathname: string): void => {
  const parts = pathname.replace(/^\/portal\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 't' && parts.length === 2 && parts[1]) return publicPage(parts[1]);
  if (parts[0] === 'g' && parts.length === 2 && parts[1]) {
    void guardianPage(parts[1]);
    return;
  }
  if (parts[0] === 'r' && parts.length === 2 && parts[1]) {
    void requestPage(parts[1]);
    return;
  }
  if (parts.length === 1 && parts[0]) {
    void tokenPage(parts[0]);
    return;
  }
  // No tenant is known here: the catalogue's English.
  document.getElementById('app')?.replaceChildren(h('h1', {}, pageWords['portal.notFoundHeading']), h('p', {}, pageWords['portal.notFoundText']));
};

try {
  route(window.location.pathname);
} catch {
  // A malformed path (undecodable percent-encoding) is no route of ours.
  route('/portal/');
}
