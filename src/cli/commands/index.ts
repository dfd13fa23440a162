import type { CliCommand } from '../cliTypes';
import { evalCommand } from './evalCommand';
import { gateCommand } from './gateCommand';
import { indexCommand } from './indexCommand';
import { ingestCommand } from './ingestCommand';
import { searchCommand } from './searchCommand';
import { inspectCommand } from './inspectCommand';
import { forgetCommand } from './forgetCommand';
import { exportCommand } from './exportCommand';
import { importCommand } from './importCommand';
import { mcpCommand } from './mcpCommand';
import { chatCommand } from './chatCommand';

/** Every `gmem` subcommand. Add one line per command. */
export const COMMANDS: CliCommand[] = [
	gateCommand,
	evalCommand,
	ingestCommand,
	searchCommand,
	inspectCommand,
	forgetCommand,
	indexCommand,
	exportCommand,
	importCommand,
	mcpCommand,
	chatCommand,
];
