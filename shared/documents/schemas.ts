import * as z from 'zod/mini';
import { described } from '../described';

/**
 * `?format=` of a route that answers a document (shared/documents): its JSON as it always was, or
 * the page. The page printed is a route of its own, the same path with `/pdf` (group `documents`).
 */
export const documentFormat = /* @__PURE__ */ (() => described(
  z._default(z.enum(['json', 'html']), 'json'),
  'json (default): the data; html: the same as a document (text/html, self-contained, printable). The same path with /pdf prints that page (application/pdf)',
))();
export const documentFormatQuery = /* @__PURE__ */ z.lazy(() => z.strictObject({ format: documentFormat }));
