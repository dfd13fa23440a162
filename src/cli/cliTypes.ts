/** What a `gmem` subcommand sees: its own arguments and the process streams, injectable for tests. */
export interface CliIo {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
	/** Reads all of standard input (used when no --in FILE is given). */
	readStdin: () => AsyncIterable<string>;
	/** True when stdin is a terminal (`gmem chat` then prompts instead of reading JSON Lines). */
	stdinIsTTY?: boolean;
	env: NodeJS.ProcessEnv;
	cwd: string;
}

/** Exit codes fixed by CONTRACT.md. */
export const EXIT_OK = 0;
export const EXIT_USAGE = 1;
export const EXIT_STORE = 2;

export interface CliCommand {
	name: string;
	/** One line for `gmem --help`. */
	summary: string;
	/** Full usage text for `gmem NAME --help`. */
	usage: string;
	run: (argv: string[], io: CliIo) => Promise<number>;
}

/** A usage or input error: main prints the message and exits 1. */
export class UsageError extends Error {}

/** The store cannot be opened: main prints the message and exits 2. */
export class StoreUnavailableError extends Error {}
