import type { CliCommand } from '../cliTypes';
import { evalCommand } from './evalCommand';
import { gateCommand } from './gateCommand';

/** Every `gmem` subcommand. Add one line per command. */
export const COMMANDS: CliCommand[] = [gateCommand, evalCommand];
