/**
 * `gmem`: the headless face of Gated Memory, used by tests, benchmarks and evaluation.
 * Machine output goes to stdout, progress and logs to stderr (CONTRACT.md).
 */
import { createInterface } from 'node:readline';
import { COMMANDS } from './commands/index';
import { EXIT_STORE, EXIT_USAGE, StoreUnavailableError, UsageError, type CliIo } from './cliTypes';

function helpText(): string {
	const width = Math.max(...COMMANDS.map((c) => c.name.length), 4);
	const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
	return [
		'usage: gmem <command> [options]',
		'',
		'commands:',
		...lines,
		'',
		'gmem <command> --help for its options.',
		'',
	].join('\n');
}

export function processIo(): CliIo {
	return {
		stdout: (t) => void process.stdout.write(t),
		stderr: (t) => void process.stderr.write(t),
		readStdin: () => createInterface({ input: process.stdin, crlfDelay: Infinity }),
		stdinIsTTY: process.stdin.isTTY === true,
		env: process.env,
		cwd: process.cwd(),
	};
}

/** Runs one command line and returns the exit code; never throws. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
	const [name, ...rest] = argv;
	if (!name || name === '--help' || name === '-h' || name === 'help') {
		io.stdout(helpText());
		return name ? 0 : EXIT_USAGE;
	}
	const command = COMMANDS.find((c) => c.name === name);
	if (!command) {
		io.stderr(`gmem: unknown command "${name}"\n\n${helpText()}`);
		return EXIT_USAGE;
	}
	if (rest.includes('--help') || rest.includes('-h')) {
		io.stdout(command.usage.endsWith('\n') ? command.usage : command.usage + '\n');
		return 0;
	}
	try {
		return await command.run(rest, io);
	} catch (e) {
		if (e instanceof UsageError) {
			io.stderr(`gmem ${name}: ${e.message}\n`);
			return EXIT_USAGE;
		}
		if (e instanceof StoreUnavailableError) {
			io.stderr(`gmem ${name}: ${e.message}\n`);
			return EXIT_STORE;
		}
		io.stderr(`gmem ${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
		return EXIT_USAGE;
	}
}

if (require.main === module) {
	runCli(process.argv.slice(2), processIo()).then(
		(code) => {
			process.exitCode = code;
		},
		(e: unknown) => {
			process.stderr.write(`gmem: ${String(e)}\n`);
			process.exitCode = EXIT_USAGE;
		},
	);
}
