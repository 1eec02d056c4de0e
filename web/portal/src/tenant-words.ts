import { callApi } from './api';
import type { PageWords } from './labels';

/** One tenant's words by language, each asked for once. */
export const wordsOf = (tenantSlug: string) => {
  const asked = new Map<string, Promise<PageWords | undefined>>();
  return (language?: string): Promise<PageWords | undefined> => {
    const key = language ?? '';
    if (!asked.has(key)) {
      const query = language ? `?language=${encodeURIComponent(language)}` : '';
      asked.set(key, callApi<PageWords>('GET', `/words/public/${encodeURIComponent(tenantSlug)}${query}`).then((answer) => (answer.ok ? answer.data : undefined)));
    }
    return asked.get(key)!;
  };
};
