import type { CliCommand } from '../cliTypes';
import { gateCommand } from './gateCommand';

/** Every `gmem` subcommand. Add one line per command. */
export const COMMANDS: CliCommand[] = [gateCommand];
