import type { CliCommand } from '../cliTypes';

/** Every `gmem` subcommand. Add one line per command. */
export const COMMANDS: CliCommand[] = [];
