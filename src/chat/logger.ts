/**
 * The logging surface the extension's modules take. `vscode.LogOutputChannel` satisfies it, so
 * code that never imports `vscode` can still log to the "Gated Memory" channel, and tests can pass
 * a small fake.
 */
export interface Logger {
	trace(message: string, ...args: unknown[]): void;
	debug(message: string, ...args: unknown[]): void;
	info(message: string, ...args: unknown[]): void;
	warn(message: string, ...args: unknown[]): void;
	error(error: string | Error, ...args: unknown[]): void;
}

/** The message of anything thrown (an Error's message, else its string form). */
export function errorMessage(e: unknown): string {
	return e instanceof Error ? e.message : String(e);
}
