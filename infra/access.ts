/**
 * What each function group may do beyond reading and writing the table (which every group gets).
 * Keyed by group name; a key ending in `*` matches every group whose name starts with the rest.
 * A group missing from `functionGroups` simply matches nothing, so rules for groups that later
 * issues add can sit here already.
 */
export type Access = 'webhookQueueSend' | 'sesSend' | 'translate';

export const accessRules: Readonly<Record<string, readonly Access[]>> = {
  'consent*': ['webhookQueueSend'],
  'notices*': ['webhookQueueSend'],
  // Notice auto-translate (and, later, cookie-banner label drafts) call Amazon Translate.
  notices: ['translate'],
  cmp: ['sesSend', 'translate'],
  'webhooks*': ['webhookQueueSend'],
  consent: ['sesSend'],
  'consent-public': ['sesSend'],
  portal: ['sesSend'],
};

const matches = (pattern: string, group: string): boolean =>
  pattern.endsWith('*') ? group.startsWith(pattern.slice(0, -1)) : group === pattern;

/** Every access the rules give `group`, each once, in a stable order. */
export const accessOf = (group: string): Access[] => {
  const granted = new Set<Access>();
  for (const [pattern, access] of Object.entries(accessRules)) {
    if (matches(pattern, group)) access.forEach((a) => granted.add(a));
  }
  return [...granted].sort();
};
