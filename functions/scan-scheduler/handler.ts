import { startDueScans } from '../../shared/scanner/schedule';

/** Run by an EventBridge rule: queues the scheduled scans that are due, a page of tenants at a time. */
export const handler = async (): Promise<void> => {
  while ((await startDueScans()) > 0);
};
