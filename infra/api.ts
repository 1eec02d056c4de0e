import { Duration, Validations } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { corsPolicy } from '../shared/http/cors';
import { bracedPath, functionGroups, type FunctionGroup } from '../shared/http/route';
import { routeList } from '../shared/http/routes';
import { serviceLogRetention, type GroupFunctions } from './functions';

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

    // Access logs name the route, never the path: paths carry withdrawal tokens and principal
    // hashes, and the log must not become a second copy of them. Nor is the client IP kept.
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: serviceLogRetention });
    const stage = this.httpApi.defaultStage!.node.defaultChild as apigwv2.CfnStage;
    stage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        time: '$context.requestTimeEpoch',
        routeKey: '$context.routeKey',
        status: '$context.status',
        latencyMs: '$context.responseLatency',
        integrationStatus: '$context.integrationStatus',
        integrationError: '$context.integrationErrorMessage',
      }),
    };

    // Authorisation is the functions' work, from the route table: JWT roles for the dashboard,
    // hashed API keys with an origin allowlist for the widget, single-use tokens for the portal,
    // and none on purpose for the public documents and the banner config (shared/http/authenticate.ts).
    Validations.of(this.httpApi).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'Every route is authorised in its function from the route table (JWT role, hashed API key with origin check, or single-use token); the few public ones are public by the spec.',
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
