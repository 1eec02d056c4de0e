import { App } from 'aws-cdk-lib';
import { addComplianceChecks } from './compliance';
import { ConsentServiceStack, stackName } from './stack';

const app = new App();

new ConsentServiceStack(app, stackName, {
  env: {
    account: process.env.CDK_DEFAULT_ACCOUNT,
    // Consent evidence stays in India unless the deployer says otherwise: the CLI's own
    // CDK_DEFAULT_REGION falls back to us-east-1, so it is not used here.
    region: process.env.CMS_DEPLOY_REGION ?? 'ap-south-1',
  },
  description: 'Consent-management service (DPDP Act): API, single table, webhook queue',
});

addComplianceChecks(app);
app.synth();
