// Runs the thin extension-host suite (test/electron/suite) with @vscode/test-electron — only where
// VS Code is installed (`code` on PATH, or VSCODE_EXECUTABLE). Elsewhere it says so and exits 0:
// the real workbench is still exercised end to end by test/e2e (code-server + chromium).
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The `code` launcher on PATH, or undefined. */
function findCodeOnPath() {
	const finder = process.platform === 'win32' ? 'where' : 'which';
	const found = spawnSync(finder, ['code'], { encoding: 'utf8' });
	const first = found.status === 0 ? found.stdout.split(/\r?\n/).find(Boolean) : undefined;
	return first ? realpathSync(first) : undefined;
}

/** The Electron executable behind a `code` launcher (bin/code → the app binary), per platform. */
function electronBehind(launcher) {
	const appRoot = dirname(dirname(launcher)); // …/bin/code → the folder above bin
	const candidates =
		process.platform === 'darwin'
			? [join(appRoot, '..', '..', 'MacOS', 'Code'), join(appRoot, '..', '..', 'MacOS', 'Electron')]
			: process.platform === 'win32'
				? [join(appRoot, 'Code.exe'), join(appRoot, 'Code - Insiders.exe')]
				: [join(appRoot, 'code'), join(appRoot, 'code-insiders')];
	return candidates.find((c) => existsSync(c));
}

const launcher = process.env.VSCODE_EXECUTABLE || findCodeOnPath();
if (!launcher) {
	console.log('VS Code not installed: skipping @vscode/test-electron suite');
	process.exit(0);
}
const executable = process.env.VSCODE_EXECUTABLE || electronBehind(launcher);

// The suite runs inside the extension host, which loads plain CommonJS: bundle it like the extension.
const suiteOut = join(root, '.vscode-test', 'suite', 'index.js');
await esbuild.build({
	entryPoints: [join(root, 'test', 'electron', 'suite', 'index.ts')],
	outfile: suiteOut,
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	external: ['vscode', 'mocha'],
	logLevel: 'warning',
});
const build = spawnSync('npm', ['run', '-s', 'build'], {
	cwd: root,
	stdio: 'inherit',
	shell: process.platform === 'win32',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const { runTests } = await import('@vscode/test-electron');
try {
	await runTests({
		// Without a resolvable Electron binary, test-electron downloads a matching VS Code at run time.
		...(executable ? { vscodeExecutablePath: executable } : { version: 'stable' }),
		extensionDevelopmentPath: root,
		extensionTestsPath: suiteOut,
		launchArgs: ['--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
	});
} catch (e) {
	console.error(`@vscode/test-electron suite failed: ${e instanceof Error ? e.message : String(e)}`);
	process.exit(1);
}
