import { fileURLToPath } from 'node:url';
import { deployedFunctions } from './deployment';
import { machineInfo, writeJson } from './report';
import { settingsFor } from './settings';
import type { Sizing } from './sizing';
import { startBenchStack } from './stack';

/**
 * `npm run bench [-- --quick]`: storage ceiling, endpoint throughput, work and price per request,
 * growth, bundles and webhook latency, against a local stack of its own. Prints a table per
 * section and writes everything to bench/results/latest.json (the committed figures; a quick run
 * writes bench/results/quick.json, which git ignores). `--only work,price` runs just the sections
 * named, for working on one figure, and writes bench/results/partial.json (also ignored): the
 * committed figures always come from one whole run; `--functions a,b` narrows the bundles section
 * to those functions (with the reference). `--retention-principals N` sets the retention
 * section's day (settings.ts).
 */
const settings = settingsFor(process.argv.includes('--quick'));
const retentionPrincipals = process.argv.indexOf('--retention-principals');
if (retentionPrincipals >= 0) {
  const principals = Number(process.argv[retentionPrincipals + 1]);
  if (!Number.isInteger(principals) || principals < 1) throw new Error('--retention-principals takes a whole number of principals');
  settings.retention.principals = principals;
}
const functionsArgument = process.argv.indexOf('--functions');
const functionNames = functionsArgument >= 0 ? (process.argv[functionsArgument + 1] ?? '').split(',').filter(Boolean) : undefined;
const onlyArgument = process.argv.indexOf('--only');
const only = onlyArgument >= 0 ? new Set((process.argv[onlyArgument + 1] ?? '').split(',').filter(Boolean)) : undefined;
const resultsFile = fileURLToPath(new URL(only ? './results/partial.json' : settings.quick ? './results/quick.json' : './results/latest.json', import.meta.url));

const results: Record<string, unknown> = {};
const errors: Record<string, string> = {};
const sectionSeconds: Record<string, number> = {};

/** Runs one section; a failure is reported and recorded, and the other sections still run. */
const section = async <T>(name: string, run: () => Promise<T>): Promise<T | undefined> => {
  if (only && !only.has(name)) return undefined;
  const started = performance.now();
  try {
    const value = await run();
    results[name] = value;
    return value;
  } catch (error) {
    errors[name] = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`\n${name} failed: ${errors[name]}`);
    return undefined;
  } finally {
    sectionSeconds[name] = Math.round((performance.now() - started) / 100) / 10;
  }
};

const main = async () => {
  const started = performance.now();
  const machine = machineInfo();
  console.log(`consent-service bench, ${settings.quick ? 'quick' : 'full'} run on ${machine.cores} × ${machine.cpuModel}, load average ${machine.loadAverage}`);
  const functions = deployedFunctions();
  const stack = await startBenchStack();
  const stopOnSignal = () => void stack.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    // Imported only now: the clients are built on first use from the environment the stack just set.
    const { db } = await import('../shared/db/client');
    const { sqs } = await import('../infra/local/sqs');
    const { queueClient } = await import('../shared/queue/sqs');
    const { instrument } = await import('./meter');
    const { createBenchTenant, startReceiver, subscribeWebhook } = await import('./fixtures');
    const { prepareEndpoints } = await import('./endpoints');
    const { measureWork } = await import('./sections/work');
    const { measurePrice } = await import('./sections/price');
    const { measureWebhookLatency } = await import('./sections/webhooks');
    const { measureLogLatency } = await import('./sections/log-latency');
    const { measureBurst } = await import('./sections/burst');
    const { rawOperations } = await import('./sections/storage');
    const { measureThroughput, warmUp } = await import('./sections/throughput');
    const { measureGrowth } = await import('./sections/growth');
    const { measureWidget } = await import('./sections/widget');
    const { measurePageViews } = await import('./sections/page-views');
    const { measureBreachIntimation } = await import('./sections/breach');
    const { measurePartitions } = await import('./sections/partitions');
    const { measureRetention } = await import('./sections/retention');
    instrument(db(), await queueClient(), sqs());

    // Separate tenants, so that one section's records and webhook do not change another's numbers.
    const mainTenant = await createBenchTenant('main');
    const pricingTenant = await createBenchTenant('price');
    const plainPricingTenant = await createBenchTenant('price-plain');
    // Fresh tenants: the log latency and the burst each start from an empty log and unreserved chunks.
    const logTenant = await createBenchTenant('log');
    const burstTenant = await createBenchTenant('burst');
    const growthTenant = await createBenchTenant('growth');
    // Its own tenant: the throughput runs leave the main tenant's cookie-banner limits spent.
    const widgetTenant = await createBenchTenant('widget');
    // Its own tenant: its cookie banner and trackers are the page-view scenario's.
    const pageViewTenant = await createBenchTenant('page-views');
    // Its own tenant: every one of its principals is affected by the breach.
    const breachTenant = await createBenchTenant('breach');
    // Their own tenants: a day of one tenant's erasures, a small tenant's due the same day, and activity on principals of another.
    const retentionTenant = await createBenchTenant('retention');
    const retentionSmallTenant = await createBenchTenant('retention-small');
    const activityTenant = await createBenchTenant('activity');
    // Its own tenant: the partition arithmetic counts every write of its consents.
    const partitionTenant = await createBenchTenant('partitions');
    const receiver = await startReceiver();
    try {
      await subscribeWebhook(pricingTenant, receiver);
      // A tenant at 10,000 consents a second tells its systems: the deliveries' partitions are counted too.
      await subscribeWebhook(partitionTenant, receiver);
      const endpoints = await prepareEndpoints(mainTenant);
      const raw = await rawOperations();
      await warmUp(raw, endpoints, settings.engineWarmupMs);
      let workSizing: Record<string, Sizing> | undefined;
      await section('work', async () => {
        const measured = await measureWork(endpoints, settings);
        workSizing = measured.sizing;
        return measured.endpoints;
      });
      const price = await section('price', () => measurePrice({ plain: plainPricingTenant, withWebhook: pricingTenant }, receiver, functions, settings));
      // Memory by measurement (bench/sizing.ts) for every function the two sections ran: what infra/functions.ts memoryMb follows.
      if (workSizing || price) results.memorySizing = { ...workSizing, ...price?.sizing };
      // Before the throughput runs: the local stream reader would otherwise have their thousands of records to work through first.
      await section('webhooks', () => measureWebhookLatency(pricingTenant, receiver, settings));
      await section('logLatency', () => measureLogLatency(logTenant, settings));
      await section('widget', () => measureWidget(widgetTenant, settings));
      await section('pageViews', () => measurePageViews(pageViewTenant, functions, settings));
      await section('throughput', () => measureThroughput(raw, endpoints, settings));
      await section('burst', () => measureBurst(burstTenant, settings));
      await section('growth', () => measureGrowth(growthTenant, settings));
      // Its sweeps run on a moved clock, with no worker loop beside them.
      await section('retention', () => measureRetention({ large: retentionTenant, small: retentionSmallTenant }, activityTenant, settings));
      // Last: the mails it queues beyond its sample stay pending, which no later section may trip over.
      await section('breach', () => measureBreachIntimation(breachTenant, settings));
      // After every section with worker loops: no stream reader may consume its records beside the stream handler it calls
      // (it touches no mail, so the breach's pending mails do not matter to it).
      await section('partitions', () => measurePartitions(partitionTenant, settings));
    } finally {
      await receiver.close();
    }
  } finally {
    await stack.stop();
  }
  // After the engines stopped, so that the import timings share the machine with nothing else.
  const { measureBundles } = await import('./sections/bundles');
  const bundles = await section('bundles', () => measureBundles(functions, settings, functionNames));
  // The figure, at the top level of the results: each function's cold path beside the SDK's own.
  if (bundles) results.coldStart = bundles.coldStart;

  const seconds = Math.round((performance.now() - started) / 100) / 10;
  writeJson(resultsFile, { machine: { ...machine, loadAverageAtEnd: machineInfo().loadAverage }, settings, functions: Object.fromEntries(functions), ...results, errors, sectionSeconds, seconds });
  console.log(`\nDone in ${seconds} s; results in ${resultsFile}`);
  if (Object.keys(errors).length > 0) {
    console.error(`Failed sections: ${Object.keys(errors).join(', ')}`);
    process.exitCode = 1;
  }
};

main().catch((error: unknown) => {
  console.error('bench failed:', error);
  process.exitCode = 1;
});
