import { durationAt, fullCpuMemoryMb, rates, type Invocation } from './pricing';

/**
 * Lambda memory by measurement. Lambda gives a function CPU in proportion to its memory (a whole
 * vCPU at 1,769 MB, and a Node handler uses one thread), so an invocation that spends `cpu` ms
 * computing and `wait` ms waiting lasts about wait + cpu × 1769 / M at M MB (pricing.ts
 * durationAt), and costs M × that. Cost alone always falls with memory (the waiting is billed
 * per MB), and duration always rises as memory falls; the bench picks the memory where
 * cost × duration is lowest, M = 1769 × cpu / wait (the derivative of (M·wait + 1769·cpu) ×
 * (wait + 1769·cpu / M) is zero there), rounded up to 64 MB and kept between 256 MB (the Node 22
 * runtime, the SDK clients and a 100-record batch in memory) and 1,769 MB (more buys no CPU).
 * docs/performance.md checks the cold start (the bundle's import, CPU bound too) at the memory chosen.
 */
export const candidateMemoryMb = [256, 512, 768, 1024, 1536, 1769] as const;

export interface Sizing {
  /** Mean per invocation, measured here on a whole core. */
  cpuMs: number;
  waitMs: number;
  /** Where cost × duration is lowest. */
  memoryMb: number;
  candidates: { memoryMb: number; meanMs: number; usdPerMillionInvocations: number }[];
}

const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);

export const sizeMemory = (invocations: readonly Invocation[]): Sizing => {
  const cpuMs = mean(invocations.map(({ cpuMs: cpu }) => cpu));
  const waitMs = mean(invocations.map(({ ms, cpuMs: cpu }) => Math.max(0, ms - cpu)));
  const best = waitMs > 0 ? (fullCpuMemoryMb * cpuMs) / waitMs : fullCpuMemoryMb;
  const memoryMb = Math.min(fullCpuMemoryMb, Math.max(256, Math.ceil(best / 64) * 64));
  const candidates = candidateMemoryMb.map((candidate) => {
    const meanMs = mean(invocations.map((invocation) => durationAt(candidate, invocation)));
    return { memoryMb: candidate, meanMs, usdPerMillionInvocations: (candidate / 1024) * (meanMs / 1000) * 1e6 * rates.lambdaGbSecond };
  });
  return { cpuMs, waitMs, memoryMb, candidates };
};
