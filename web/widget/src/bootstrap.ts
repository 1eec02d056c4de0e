import { widgetBootstrapMaxAgeSeconds } from '../../../shared/http/edge-cache';
import type { CmpConfig } from './cookies';
import { call, type Embed } from './env';
import type { PublicNotice } from './notice';

/** GET /widget/bootstrap: both banners and the words of one language, cached at the edge. */
export interface Bootstrap {
  notice: PublicNotice | null;
  cmp: CmpConfig | null;
  /** The language's words, and under EN the English of the keys it does not show. */
  words: Record<string, Record<string, string>>;
}

/**
 * The bootstrap in `language`, unless its Age (whole seconds) is over the bound the edge may keep
 * it for: CloudFront serves its stale copy while its origin fails, whatever the answer said, and a
 * revoked key's copy must not show past the bound. Without it no banner shows and every optional
 * category stays denied.
 */
export const fetchBootstrap = async (embed: Embed, language: string): Promise<Bootstrap | undefined> => {
  const reply = await call<Bootstrap>(`${embed.apiBase}/widget/bootstrap?apiKey=${encodeURIComponent(embed.apiKey)}&language=${language}`);
  return reply.age! > widgetBootstrapMaxAgeSeconds ? undefined : reply.data;
};
