import { createGroupHandler } from '../../shared/http/handler';
import { metaRoutes } from '../../shared/http/routes/meta';
import { apiDocuments } from './documents';

/** Also API Gateway's `$default` route: any path no route matches gets the 404 envelope from here. */
export const handler = createGroupHandler('meta', metaRoutes, {
  openApiDocument: async () => ({ bareJson: apiDocuments().openApi }),
  asyncApiDocument: async () => ({ bareJson: apiDocuments().asyncApi }),
});
