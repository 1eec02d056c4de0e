/**
 * What each function may do beyond reading and writing the table (which every function gets),
 * keyed by function name: a route group, or a worker no route reaches. It mirrors the AWS clients
 * each bundle actually imports, and tests/infra/grants.test.ts holds the two together, so a
 * function that starts calling SES or SQS fails a test until its grant is written down here.
 */
export type Access = 'tokenSigning' | 'tokenVerify' | 'webhookQueueSend' | 'scanQueueSend' | 'breachQueueSend' | 'sesSend' | 'translate' | 'logSigningKey' | 'logPublicKey' | 'checkpointArchive' | 'checkpointArchiveRead' | 'receiptKey' | 'documentPrint' | 'documentSource';

export const accessRules: Readonly<Record<string, readonly Access[]>> = {
  // Sign-in and refresh issue access tokens; no other function can sign one. (Every route group
  // also gets tokenVerify, the public keys that check them: infra/functions.ts.)
  auth: ['tokenSigning'],
  // Notice auto-translate and cookie-banner label drafts call Amazon Translate.
  notices: ['translate'],
  // scan-now queues the run for the scanner.
  cmp: ['translate', 'scanQueueSend'],
  // The test delivery of a webhook is queued like any other.
  webhooks: ['webhookQueueSend'],
  // A record's proof carries its receipt, issued again; recording (the DPO's, consent-staff's) issues one.
  consent: ['receiptKey'],
  'consent-staff': ['receiptKey'],
  'consent-public': ['receiptKey'],
  // Evidence packs are signed by the log's key; the public key set and packs name both keys. A pack
  // asks the stream for the checkpoint it waits for: no archive here.
  evidence: ['receiptKey', 'logSigningKey'],
  // The log's verification reads archived checkpoints (never writes one) and opens them with the
  // checkpoint key's public half.
  'evidence-verify': ['logPublicKey', 'checkpointArchiveRead'],
  // The table's stream: mails and events leave only through the outbox (every other writer just
  // writes an outbox item), and new records are appended to the evidence log, which is then signed and archived.
  stream: ['sesSend', 'webhookQueueSend', 'logSigningKey', 'checkpointArchive'],
  // A grievance's answer carries a closure receipt signed by the receipt key.
  rights: ['receiptKey'],
  // Signs and archives the checkpoints that are due (and appends the log entries the stream parked).
  checkpointer: ['logSigningKey', 'checkpointArchive'],
  // Retries what the stream's consumers parked for one tenant: outbox mails (SES) and events (deliveries).
  'stream-sweeper': ['sesSend', 'webhookQueueSend'],
  // A retry goes back on the queue with a delay; the sweeper re-queues lost attempts.
  'webhook-worker': ['webhookQueueSend'],
  'webhook-sweeper': ['webhookQueueSend'],
  // Due scheduled scans are queued like scan-now's.
  'scan-scheduler': ['scanQueueSend'],
  // A breach's principal intimation is queued (and a stalled one re-queued) from the API.
  breaches: ['breachQueueSend'],
  // The printed documents (…/pdf): the page asked of the document's own function (evidence,
  // breaches, rights: the route table's `prints`), then printed by the document printer
  // (infra/document-printer.ts). No other function invokes a function.
  documents: ['documentPrint', 'documentSource'],
  // Each resolution page queues its batch and the next page.
  'breach-worker': ['breachQueueSend'],
};

/** Every access the rules give `name`, each once, in a stable order. */
export const accessOf = (name: string): Access[] =>
  Object.hasOwn(accessRules, name) ? [...new Set(accessRules[name])].sort() : [];
