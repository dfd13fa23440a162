// `npm run package [-- --target linux-x64,darwin-arm64] [--no-build]`: one .vsix per platform in
// out/vsix/gated-memory-<target>.vsix. onnxruntime-node ships every platform's native binaries
// (~290 MB) in one npm package; each .vsix keeps only its own, so a user downloads one platform's
// runtime. Everything else (bundles, the built-in model in dist/models/builtin, PGlite's WASM) is the
// same in all five. vsce is the project's pinned devDependency, run offline.
import { execFileSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];
const ORT_BIN = 'node_modules/onnxruntime-node/bin';

/** Every `<napi>/<platform>/<arch>` folder onnxruntime-node ships, read from the installed package. */
function ortBinaryDirs() {
	const dirs = [];
	for (const napi of readdirSync(join(ROOT, ORT_BIN))) {
		for (const platform of readdirSync(join(ROOT, ORT_BIN, napi))) {
			for (const arch of readdirSync(join(ROOT, ORT_BIN, napi, platform))) dirs.push({ napi, platform, arch });
		}
	}
	return dirs;
}

/** .vscodeignore plus every other platform's onnxruntime folder. */
function ignoreFileFor(target, dir) {
	const [platform, arch] = target.split('-');
	const lines = [readFileSync(join(ROOT, '.vscodeignore'), 'utf8')];
	for (const d of ortBinaryDirs())
		if (d.platform !== platform || d.arch !== arch) lines.push(`${ORT_BIN}/${d.napi}/${d.platform}/${d.arch}/**`);
	// macOS: libonnxruntime.1.30.0.dylib is a byte-identical copy of libonnxruntime.1.dylib (npm has no
	// symlinks); the binding loads only @rpath/libonnxruntime.1.dylib (its load command), so the
	// versioned copy would add 44 MB for nothing.
	if (platform === 'darwin') lines.push(`${ORT_BIN}/*/darwin/*/libonnxruntime.*.*.*.dylib`);
	const file = join(dir, `vscodeignore.${target}`);
	writeFileSync(file, lines.join('\n') + '\n');
	return file;
}

/** Runs a tool quietly (esbuild's and vsce's chatter), showing its output only when it fails. */
function run(command, args) {
	try {
		execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1048576 });
	} catch (e) {
		process.stderr.write(`${e.stdout ?? ''}${e.stderr ?? ''}`);
		throw new Error(`${command} ${args.join(' ')} failed`);
	}
}

function parseTargets(argv) {
	const i = argv.indexOf('--target');
	if (i < 0) return TARGETS;
	const chosen = (argv[i + 1] ?? '').split(',').filter(Boolean);
	const unknown = chosen.filter((t) => !TARGETS.includes(t));
	if (!chosen.length || unknown.length)
		throw new Error(`--target takes a comma-separated list of ${TARGETS.join(', ')}`);
	return chosen;
}

function main(argv) {
	const targets = parseTargets(argv);
	process.chdir(ROOT);
	if (!argv.includes('--no-build')) run('npm', ['run', '-s', 'build']);
	if (!existsSync('dist/extension.js') || !existsSync('dist/models/builtin/table.bin'))
		throw new Error('dist/ is incomplete: run npm run build');
	const out = join(ROOT, 'out', 'vsix');
	mkdirSync(out, { recursive: true });
	const tmp = mkdtempSync(join(tmpdir(), 'gmem-package-'));
	try {
		for (const target of targets) {
			const vsix = join(out, `gated-memory-${target}.vsix`);
			rmSync(vsix, { force: true });
			const started = Date.now();
			// No repository field: the README's relative links stay as they are (docs/ is not packaged).
			run(join(ROOT, 'node_modules/.bin/vsce'), [
				'package',
				'--target',
				target,
				'--ignoreFile',
				ignoreFileFor(target, tmp),
				'--allow-missing-repository',
				'--no-rewrite-relative-links',
				'-o',
				vsix,
			]);
			const mb = (statSync(vsix).size / 1048576).toFixed(1);
			console.log(
				`${target}\t${mb} MB\tout/vsix/gated-memory-${target}.vsix\t${((Date.now() - started) / 1000).toFixed(1)} s`,
			);
		}
	} finally {
		rmSync(tmp, { recursive: true, force: true });
	}
}

try {
	main(process.argv.slice(2));
} catch (e) {
	console.error(`package: ${e instanceof Error ? e.message : String(e)}`);
	process.exitCode = 1;
}
