import { describe, expect, it } from 'vitest';
import { addItemUnits, emptyKeyedUnits, maskKey, summarisePartitions } from '../bench/partition-units';
import { durationAt, fullCpuMemoryMb } from '../bench/pricing';
import { sizeMemory } from '../bench/sizing';

/** The bench's arithmetic that the figures rest on: partition keys, modelled Lambda durations, memory sizing. */
describe('partition arithmetic', () => {
  const tenantId = 'tenant-1';

  it('counts index writes against the index key taken from the item, and table writes against its PK and item', () => {
    const keyed = emptyKeyedUnits();
    addItemUnits(keyed, { PK: `REC#${tenantId}#3`, SK: 'RECORD#a', GSI1PK: `PRINCIPAL#${tenantId}#p1`, GSI1SK: 'x' }, { table: 1, GSI1: 1 });
    addItemUnits(keyed, { PK: `REC#${tenantId}#3`, SK: 'RECORD#b', GSI1PK: `PRINCIPAL#${tenantId}#p2`, GSI1SK: 'y' }, { table: 1, GSI1: 1 });
    expect(keyed.partitions).toEqual({ [`table REC#${tenantId}#3`]: 2, [`GSI1 PRINCIPAL#${tenantId}#p1`]: 1, [`GSI1 PRINCIPAL#${tenantId}#p2`]: 1 });
    expect(keyed.items).toEqual({ [`REC#${tenantId}#3 RECORD#a`]: 1, [`REC#${tenantId}#3 RECORD#b`]: 1 });
  });

  it('reports the hottest key by its share of all write units and scales hot items to 10,000 consents a second', () => {
    const keyed = emptyKeyedUnits();
    // 100 consents: each record in one of two shards, the counters updated once, a rate-limit chunk once.
    for (let index = 0; index < 100; index += 1) addItemUnits(keyed, { PK: `REC#${tenantId}#${index % 2}`, SK: `RECORD#${index}` }, { table: 1 });
    addItemUnits(keyed, { PK: `TENANT#${tenantId}`, SK: 'CONSENTSTATS' }, { table: 2 });
    addItemUnits(keyed, { PK: `RATE#sdk-key#${'ab'.repeat(16)}`, SK: '1764115200' }, { table: 1 });
    const result = summarisePartitions(keyed, 100, tenantId);
    expect(result.hottestKey).toBe('table REC#<tid>#0');
    expect(result.hottestKeyShare).toBeCloseTo(50 / 103, 4);
    expect(result.hottestKeyWruPerSecondAt10k).toBe(5000);
    expect(result.hotItemWruPerSecondAt10k).toEqual({ counters: 200, 'rate limit sdk-key': 100 });
    expect(result.wruPerConsent).toBe(1.03);
  });

  it('masks ids so that keys of one kind read alike', () => {
    expect(maskKey(`HOOK#0190f1a2-3b4c-7d5e-8f60-123456789abc#a`, tenantId)).toBe('HOOK#<id>#a');
    expect(maskKey(`LOG#${tenantId}#MAP#01a2155783 000000000100#w`, tenantId)).toBe('LOG#<tid>#MAP#<hash> <n>#w');
  });
});

describe('Lambda duration and memory', () => {
  it('stretches CPU time by the vCPU share the memory buys, never below a whole vCPU, and rounds up to a millisecond', () => {
    expect(durationAt(fullCpuMemoryMb, { ms: 10, cpuMs: 4 })).toBe(10);
    expect(durationAt(3538, { ms: 10, cpuMs: 4 })).toBe(10);
    expect(durationAt(fullCpuMemoryMb / 2, { ms: 10, cpuMs: 4 })).toBe(14);
    expect(durationAt(512, { ms: 10.2, cpuMs: 0 })).toBe(11);
  });

  it('picks the memory where cost × duration is lowest, 1769 × CPU / wait, within 256 and 1,769 MB', () => {
    expect(sizeMemory([{ ms: 20, cpuMs: 10 }]).memoryMb).toBe(fullCpuMemoryMb);
    expect(sizeMemory([{ ms: 12, cpuMs: 4 }]).memoryMb).toBe(896);
    expect(sizeMemory([{ ms: 101, cpuMs: 1 }]).memoryMb).toBe(256);
    // The choice is the minimum of cost × duration over the candidates too.
    const sized = sizeMemory([{ ms: 12, cpuMs: 4 }]);
    const product = ({ meanMs, usdPerMillionInvocations }: (typeof sized.candidates)[number]) => usdPerMillionInvocations * meanMs;
    const best = [...sized.candidates].sort((a, b) => product(a) - product(b))[0]!;
    expect([768, 1024]).toContain(best.memoryMb);
  });
});
