import { Duration, Size, Stack, Validations, type CfnResource } from 'aws-cdk-lib';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { repoRoot, serviceLogRetention } from './functions';
import { scannerImageExcludes } from './scanner';

/**
 * The document printer: the function that prints a document's page as a PDF (`?format=pdf` of the
 * Board filings, evidence packs and access summaries; shared/documents/pdf.ts). A zip Lambda cannot
 * carry Chromium, and the scanner's container image already does: this function runs that same
 * image with the printer's handler (functions/document-printer/handler.ts, bundled beside the
 * scanner's in functions/scanner/Dockerfile), so there is one image with a browser, one build.
 *
 * The functions that answer the API invoke it synchronously (lambda:InvokeFunction on it alone,
 * infra/functions.ts) and wait for the PDF. It reads and writes nothing: its role may only log.
 * Its JavaScript is off and every request of the page is refused (shared/documents/print.ts).
 */
export class DocumentPrinter extends Construct {
  readonly printer: lambda.DockerImageFunction;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const logGroup = new logs.LogGroup(this, 'PrinterLogs', { retention: serviceLogRetention });
    const role = new iam.Role(this, 'PrinterRole', { description: 'consent-service document printer', assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    role.addToPolicy(new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [`${logGroup.logGroupArn}:*`] }));
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(logGroup.node.defaultChild as CfnResource)}.Arn>:*]`,
      reason: "Lambda names its own log streams inside the function's log group; the grant stops at that group.",
    });
    this.printer = new lambda.DockerImageFunction(this, 'PrinterFunction', {
      description: 'consent-service document printer (headless Chromium, from the scanner image)',
      code: lambda.DockerImageCode.fromImageAsset(repoRoot, {
        file: 'functions/scanner/Dockerfile',
        exclude: scannerImageExcludes,
        platform: Platform.LINUX_AMD64,
        cmd: ['printer.handler'],
      }),
      architecture: lambda.Architecture.X86_64,
      role,
      memorySize: 1536,
      ephemeralStorageSize: Size.mebibytes(1024),
      // Inside the 15 s of the functions that wait for it (infra/functions.ts): a first print starts Chromium.
      timeout: Duration.seconds(12),
      logGroup,
      environment: { CMS_STAGE: 'aws', NODE_OPTIONS: '--enable-source-maps' },
    });
  }
}
