import type { ClockResponseDto } from '@app/sandbox';
import type { AdminClient } from './admin-client';
import { type TransportOptions, withAdminClient } from './admin-transport';
import type { CliIo } from './cli-io';
import { DURATION_FORMS, formatDuration, parseDuration } from './duration';

export interface ClockOutputOptions extends TransportOptions {
  json?: boolean;
}

/** The sandbox clock (contract §6): kept in the database, so it is moved with or without a running sandbox. */
export const clockCommands = {
  show: (options: ClockOutputOptions, io: CliIo) => runClock(options, io, (client) => client.readClock()),

  set: (now: string, options: ClockOutputOptions & { frozen?: boolean }, io: CliIo) =>
    runClock(options, io, (client) => client.setClock({ now, frozen: options.frozen ?? false })),

  advance: (duration: string, options: ClockOutputOptions, io: CliIo) => {
    const seconds = parseDuration(duration);
    if (seconds === null) {
      io.err(`Cannot read the duration ${JSON.stringify(duration)}: give ${DURATION_FORMS}.\n`);
      return Promise.resolve(2);
    }
    return runClock(options, io, async (client) => {
      const clock = await client.advanceClock({ seconds });
      io.err(`Moved the sandbox clock ${formatDuration(seconds)} (${seconds} s) forward.\n`);
      return clock;
    });
  },

  reset: (options: ClockOutputOptions, io: CliIo) => runClock(options, io, (client) => client.resetClock()),
};

function runClock(options: ClockOutputOptions, io: CliIo, work: (client: AdminClient) => Promise<ClockResponseDto>): Promise<number> {
  return withAdminClient(options, io, async (client) => {
    const clock = await work(client);
    io.out(options.json ? `${JSON.stringify(clock)}\n` : `${clock.now} ${clock.frozen ? 'frozen' : 'running'}\n`);
    return 0;
  });
}
