import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { corsPolicy } from '../shared/http/cors';
import { edgeCachePolicies, type EdgeCacheName } from '../shared/http/edge-cache';
import { routeList } from '../shared/http/routes';
import { acknowledgeWildcards } from './compliance';
import { serviceLogRetention } from './functions';
import { dashboardContentSecurityPolicy, demoContentSecurityPolicy, deployableFiles, portalContentSecurityPolicy, presentWebApps, type DeployedWebFile } from '../web/build';

export interface WebAssetsProps {
  httpApi: apigwv2.HttpApi;
}

/** How long a stable name (`/widget/v1/cms.js`) may be cached: a release reaches every page within this. */
export const shortCacheControl = 'public, max-age=300';
export const immutableCacheControl = 'public, max-age=31536000, immutable';
/** The dashboard's index.html names the hashed chunks of its release: never stored, so a deploy is live at once. */
export const noStoreCacheControl = 'no-store';

/** Writes one caching class of the built apps into a fresh folder for a BucketDeployment. */
const stage = (files: DeployedWebFile[]): string => {
  const directory = mkdtempSync(join(tmpdir(), 'cms-web-'));
  for (const file of files) {
    mkdirSync(dirname(join(directory, file.key)), { recursive: true });
    writeFileSync(join(directory, file.key), file.contents);
  }
  return directory;
};

// Every /portal/<token> and /portal/t/<slug> is the one page; its files have an extension.
const portalRoutes = `function handler(event) {
  var request = event.request;
  if (!/\\.[a-z0-9]+$/.test(request.uri)) request.uri = '/portal/index.html';
  return request;
}`;

// Every /dashboard/<screen>/… is a client route of the one page; its scripts and styles have an extension.
const dashboardRoutes = `function handler(event) {
  var request = event.request;
  if (!/\\.[a-z0-9]+$/.test(request.uri)) request.uri = '/dashboard/index.html';
  return request;
}`;

/**
 * The browser apps (widget, withdrawal portal, DPO dashboard) in a private bucket behind CloudFront, with the
 * API behind the same distribution under /api/*, so the portal calls its API on its own origin.
 */
export class WebAssets extends Construct {
  readonly distribution: cloudfront.Distribution;
  /** https://<distribution domain>, without a trailing slash. */
  readonly baseUrl: string;

  constructor(scope: Construct, id: string, props: WebAssetsProps) {
    super(scope, id);

    const bucket = new s3.Bucket(this, 'Assets', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
    });
    const assets = origins.S3BucketOrigin.withOriginAccessControl(bucket);
    const api = new origins.HttpOrigin(Fn.select(2, Fn.split('/', props.httpApi.apiEndpoint)), {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
    });

    // Withdrawal links are secrets in the URL: never cached, never sent on as a referrer, never indexed.
    const portalHeaders = new cloudfront.ResponseHeadersPolicy(this, 'PortalHeaders', {
      comment: 'Withdrawal pages: no-store, no-referrer, noindex',
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Cache-Control', value: 'no-store', override: true },
          { header: 'X-Robots-Tag', value: 'noindex', override: true },
        ],
      },
      securityHeadersBehavior: {
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        contentSecurityPolicy: { contentSecurityPolicy: portalContentSecurityPolicy, override: true },
      },
    });

    // The dashboard: its own CSP (no inline script, API on this origin only), never framed or indexed.
    const dashboardHeaders = new cloudfront.ResponseHeadersPolicy(this, 'DashboardHeaders', {
      comment: 'DPO dashboard: strict CSP, no framing, noindex',
      customHeadersBehavior: { customHeaders: [{ header: 'X-Robots-Tag', value: 'noindex', override: true }] },
      securityHeadersBehavior: {
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.SAME_ORIGIN, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        contentSecurityPolicy: { contentSecurityPolicy: dashboardContentSecurityPolicy, override: true },
      },
    });

    // The widget's demo page: the local server's headers for it (web/build.ts fileHeaders), so
    // CloudFront serves it as strictly as the portal. cms.js itself runs under tenants' policies.
    const demoHeaders = new cloudfront.ResponseHeadersPolicy(this, 'DemoHeaders', {
      comment: 'Widget demo page: strict CSP, no framing',
      securityHeadersBehavior: {
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        contentSecurityPolicy: { contentSecurityPolicy: demoContentSecurityPolicy, override: true },
      },
    });

    // Answers the edge shares between sites (the widget bootstrap): CORS for any origin, set here
    // whatever the cached copy says, so a copy made for one site's request serves every site.
    const sharedAnswerHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SharedAnswerHeaders', {
      comment: 'Edge-cached API answers: CORS for any origin, set by CloudFront',
      corsBehavior: {
        accessControlAllowOrigins: ['*'],
        accessControlAllowMethods: ['GET', 'HEAD', 'OPTIONS'],
        accessControlAllowHeaders: [...corsPolicy.allowHeaders],
        accessControlExposeHeaders: [...corsPolicy.exposeHeaders],
        accessControlAllowCredentials: false,
        accessControlMaxAge: Duration.seconds(corsPolicy.maxAgeSeconds),
        originOverride: true,
      },
    });

    /**
     * The routes the route table marks `edgeCache`, each a behaviour ahead of /api/* with the cache
     * and origin request policies made from its policy (shared/http/edge-cache.ts), the one the
     * local edge keys by: the policy's query strings, nothing else; no cookie, no header (so no
     * Authorization, no Origin); at most the policy's max-age.
     */
    const edgePolicies = new Map<EdgeCacheName, { cachePolicy: cloudfront.ICachePolicy; originRequestPolicy: cloudfront.IOriginRequestPolicy }>();
    const policiesOf = (name: EdgeCacheName) => {
      const known = edgePolicies.get(name);
      if (known) return known;
      const policy = edgeCachePolicies[name];
      const made = {
        cachePolicy: new cloudfront.CachePolicy(this, `EdgeCache-${name}`, {
          comment: `${name}: keyed by ${policy.queryStrings.join(', ')} only, at most ${policy.maxAgeSeconds} s`,
          queryStringBehavior: cloudfront.CacheQueryStringBehavior.allowList(...policy.queryStrings),
          headerBehavior: cloudfront.CacheHeaderBehavior.none(),
          cookieBehavior: cloudfront.CacheCookieBehavior.none(),
          minTtl: Duration.seconds(0),
          defaultTtl: Duration.seconds(policy.maxAgeSeconds),
          maxTtl: Duration.seconds(policy.maxAgeSeconds),
          enableAcceptEncodingGzip: policy.compress,
          enableAcceptEncodingBrotli: policy.compress,
        }),
        originRequestPolicy: new cloudfront.OriginRequestPolicy(this, `EdgeOrigin-${name}`, {
          comment: `${name}: the origin gets ${policy.queryStrings.join(', ')} and no viewer header or cookie`,
          queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.allowList(...policy.queryStrings),
          headerBehavior: cloudfront.OriginRequestHeaderBehavior.none(),
          cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
        }),
      };
      edgePolicies.set(name, made);
      return made;
    };
    const edgeBehaviors = Object.fromEntries(
      routeList.flatMap((route) =>
        route.edgeCache
          ? [
              [
                route.path.replace(/:[A-Za-z][A-Za-z0-9]*/g, '*'),
                {
                  origin: api,
                  viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
                  allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
                  cachedMethods: cloudfront.CachedMethods.CACHE_GET_HEAD,
                  compress: edgeCachePolicies[route.edgeCache].compress,
                  ...policiesOf(route.edgeCache),
                  responseHeadersPolicy: sharedAnswerHeaders,
                } satisfies cloudfront.BehaviorOptions,
              ],
            ]
          : [],
      ),
    );

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'consent-service widget, withdrawal pages and API',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: assets,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        // Honours each object's Cache-Control: five minutes for stable names, a year for hashed ones.
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.CORS_ALLOW_ALL_ORIGINS,
      },
      additionalBehaviors: {
        '/widget/demo*': {
          origin: assets,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: demoHeaders,
        },
        '/portal/*': {
          origin: assets,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          responseHeadersPolicy: portalHeaders,
          functionAssociations: [
            {
              eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
              function: new cloudfront.Function(this, 'PortalRoutes', {
                code: cloudfront.FunctionCode.fromInline(portalRoutes),
                runtime: cloudfront.FunctionRuntime.JS_2_0,
              }),
            },
          ],
        },
        '/dashboard/*': {
          origin: assets,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          // Honours each object's Cache-Control: index.html no-store, hashed chunks immutable.
          cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: dashboardHeaders,
          functionAssociations: [
            {
              eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
              function: new cloudfront.Function(this, 'DashboardRoutes', {
                code: cloudfront.FunctionCode.fromInline(dashboardRoutes),
                runtime: cloudfront.FunctionRuntime.JS_2_0,
              }),
            },
          ],
        },
        // Before /api/*: CloudFront takes the first behaviour whose pattern matches.
        ...edgeBehaviors,
        // Every other API route: never cached, the viewer's request passed on whole.
        '/api/*': {
          origin: api,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      },
    });
    this.baseUrl = `https://${this.distribution.distributionDomainName}`;

    const files = presentWebApps().flatMap(deployableFiles);
    // The copy handler (one function for the three deployments) logs a year like every function of the stack.
    const deploymentLogs = new logs.LogGroup(this, 'DeploymentLogs', { retention: serviceLogRetention });
    // Hashed files first and never pruned, so a page holding an older hashed URL keeps working.
    const immutable = new s3deploy.BucketDeployment(this, 'ImmutableFiles', {
      logGroup: deploymentLogs,
      sources: [s3deploy.Source.asset(stage(files.filter((file) => file.caching === 'immutable')))],
      destinationBucket: bucket,
      cacheControl: [s3deploy.CacheControl.fromString(immutableCacheControl)],
      prune: false,
    });
    const stable = new s3deploy.BucketDeployment(this, 'StableFiles', {
      logGroup: deploymentLogs,
      sources: [s3deploy.Source.asset(stage(files.filter((file) => file.caching === 'short')))],
      destinationBucket: bucket,
      cacheControl: [s3deploy.CacheControl.fromString(shortCacheControl)],
      prune: false,
      distribution: this.distribution,
      distributionPaths: ['/widget/*', '/portal/*'],
    });
    stable.node.addDependency(immutable);
    // Pages that name hashed files (the dashboard's index.html): after those files, never cached.
    const pages = new s3deploy.BucketDeployment(this, 'PageFiles', {
      logGroup: deploymentLogs,
      sources: [s3deploy.Source.asset(stage(files.filter((file) => file.caching === 'none')))],
      destinationBucket: bucket,
      cacheControl: [s3deploy.CacheControl.fromString(noStoreCacheControl)],
      prune: false,
    });
    pages.node.addDependency(immutable);

    // The copy handler is a singleton the CDK adds to the stack, with a role and runtime of its choosing.
    for (const handler of Stack.of(this).node.children.filter((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      acknowledgeWildcards(handler, 'The CDK bucket-deployment handler copies the build from the CDK asset bucket into this bucket; its grants are the CDK\'s, scoped to those two buckets.');
      Validations.of(handler).acknowledge({ id: 'AwsSolutions-L1', reason: 'The bucket-deployment handler\'s runtime is chosen by the CDK release.' });
      Validations.of(handler).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'The bucket-deployment handler\'s role is created by the CDK with the basic execution policy; it runs only at deploy time.',
      });
    }
    Validations.of(bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'The bucket holds only the public build output of the browser apps; reads arrive through CloudFront alone (origin access control).',
    });
    const distributionFindings: Record<string, string> = {
      'AwsSolutions-CFR3':
        'CloudFront access logs would record every withdrawal link (a secret token in the path) with the visitor IP; the API keeps its own access log by route key.',
      'AwsSolutions-CFR1': 'Data principals may withdraw from anywhere in the world; no geographic restriction.',
      'AwsSolutions-CFR2': "Abuse limits are enforced per route by the service rate limiter (shared/rate-limit); a WAF web ACL is the deployer's choice and cost.",
      'AwsSolutions-CFR4': 'The default *.cloudfront.net certificate allows only what CloudFront allows; with a custom domain set minimumProtocolVersion TLS_V1_2_2021.',
    };
    for (const [id, reason] of Object.entries(distributionFindings)) Validations.of(this.distribution).acknowledge({ id, reason });
  }
}
