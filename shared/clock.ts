/**
 * The one clock. Domain code asks `clock.now()` instead of `new Date()` so tests can move time
 * (token expiry, rate-limit windows, monthly resets) without sleeping.
 */
export interface Clock {
  now(): Date;
}

const systemClock: Clock = { now: () => new Date() };

let current: Clock = systemClock;

export const clock: Clock = {
  now: () => current.now(),
};

/** One UTC day in milliseconds. */
export const dayMs = 24 * 60 * 60 * 1000;

export const nowIso = (): string => clock.now().toISOString();
export const nowEpochSeconds = (): number => Math.floor(clock.now().getTime() / 1000);

/** Tests only: pin or shift time. */
export const setClock = (next: Clock): void => {
  current = next;
};
export const resetClock = (): void => {
  current = systemClock;
};
export const fixedClock = (at: Date | string): Clock => {
  const instant = new Date(at);
  return { now: () => new Date(instant) };
};
export const offsetClock = (offsetMs: number): Clock => ({
  now: () => new Date(Date.now() + offsetMs),
});
