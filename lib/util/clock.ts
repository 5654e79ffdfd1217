/** The current time, as the service and MemoryProvider read it; tests pass a fixed one. */
export type Clock = () => Date;

/** The clock used when none is given: the system time. */
export const systemClock: Clock = () => new Date();
