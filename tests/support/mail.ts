import { drainOutbox } from '../../shared/events/drain';

interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

/** Runs the outbox drainer (as the worker loop would) and returns what the SES emulator holds. */
export const deliveredMails = async (): Promise<StoredMail[]> => {
  while ((await drainOutbox('MAIL')) > 0);
  const response = await fetch(`${process.env.SES_ENDPOINT}/store`);
  return ((await response.json()) as { emails: StoredMail[] }).emails;
};

export const mailsTo = async (address: string) =>
  (await deliveredMails()).filter((mail) => mail.destination.to.includes(address));
