import { Duration } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { corsPolicy } from '../shared/http/cors';
import { bracedPath, functionGroups, type FunctionGroup } from '../shared/http/route';
import { routeList } from '../shared/http/routes';
import type { GroupFunctions } from './functions';

export interface ConsentApiProps {
  functions: GroupFunctions;
}

/** The group whose function answers `$default`, i.e. every path no route matches, with the 404 envelope. */
export const defaultRouteGroup: FunctionGroup = 'meta';

/** The HTTP API: one route per entry of the route table, each to its group's function. */
export class ConsentApi extends Construct {
  readonly httpApi: apigwv2.HttpApi;

  constructor(scope: Construct, id: string, props: ConsentApiProps) {
    super(scope, id);

    // One integration per function. The Lambda permission is scoped to this API rather than to
    // each route: one statement per function instead of one per route keeps the function's
    // resource policy far below its 20 KB limit as the route table grows.
    const integrations = new Map(
      functionGroups.map((group) => [
        group,
        new HttpLambdaIntegration(`${group}-integration`, props.functions.of(group), { scopePermissionToRoute: false }),
      ]),
    );
    const integrationOf = (group: FunctionGroup): HttpLambdaIntegration => {
      const integration = integrations.get(group);
      if (!integration) throw new Error(`no integration for group "${group}"`);
      return integration;
    };

    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      description: 'Consent-management service API',
      defaultIntegration: integrationOf(defaultRouteGroup),
      // The same policy the local server applies (shared/http/cors.ts).
      corsPreflight: {
        allowOrigins: [...corsPolicy.allowOrigins],
        allowMethods: corsPolicy.allowMethods.map((method) => apigwv2.CorsHttpMethod[method]),
        allowHeaders: [...corsPolicy.allowHeaders],
        exposeHeaders: [...corsPolicy.exposeHeaders],
        maxAge: Duration.seconds(corsPolicy.maxAgeSeconds),
      },
    });

    for (const route of routeList) {
      this.httpApi.addRoutes({
        path: bracedPath(route.path),
        methods: [apigwv2.HttpMethod[route.method]],
        integration: integrationOf(route.group),
      });
    }
  }
}
