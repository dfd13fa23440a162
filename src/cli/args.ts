/** Thin wrapper over node:util parseArgs that turns its errors into UsageError. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './cliTypes';

export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
	argv: string[],
	options: T,
	allowPositionals = true,
) {
	try {
		return parseArgs({ args: argv, options, allowPositionals, strict: true });
	} catch (e) {
		throw new UsageError(e instanceof Error ? e.message : String(e));
	}
}
