/**
 * Entry point that @vscode/test-electron loads inside the extension host: runs the mocha tests of
 * this folder and resolves when they pass (rejects with the failure count otherwise).
 */
import Mocha from 'mocha';

/** Called by the extension host with the suite's path. */
export async function run(): Promise<void> {
	const mocha = new Mocha({ ui: 'bdd', color: true, timeout: 30_000 });
	// Bundled tests register with the globals that mocha installs on 'pre-require'.
	mocha.suite.emit('pre-require', globalThis, 'extension.test', mocha);
	await import('./extension.test');
	const failures = await new Promise<number>((resolve) => mocha.run(resolve));
	if (failures > 0) throw new Error(`${failures} extension-host test(s) failed`);
}
