import * as z from 'zod/mini';
import { described } from '../described';

/** `?format=` of a route that answers a document (shared/documents): its JSON as it always was, the page, or the page printed. */
export const documentFormat = described(
  z._default(z.enum(['json', 'html', 'pdf']), 'json'),
  'json (default): the data; html: the same as a document (text/html, self-contained, printable); pdf: that page printed by Chromium (application/pdf)',
);
export const documentFormatQuery = z.strictObject({ format: documentFormat });
