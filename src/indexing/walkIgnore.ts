/**
 * What the walk leaves out: nested `.gitignore` files (each applies below its own folder, later
 * ones may re-include with `!`), `.git/info/exclude`, the user's excludes (VS Code
 * `files.exclude`/`search.exclude`/`gatedMemory.index.exclude` globs), generated and vendored
 * folders, and generated files such as lock files and minified bundles. Matching is done by the
 * `ignore` package (gitignore semantics), never by hand-written glob code.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Folders never walked: dependencies, build output, caches, virtual environments, VCS data. */
export const DEFAULT_EXCLUDED_DIRS: ReadonlySet<string> = new Set([
	'.git',
	'.hg',
	'.svn',
	'node_modules',
	'bower_components',
	'jspm_packages',
	'vendor',
	'dist',
	'build',
	'out',
	'target',
	'.venv',
	'venv',
	'.tox',
	'.nox',
	'__pycache__',
	'.mypy_cache',
	'.pytest_cache',
	'.ruff_cache',
	'.eggs',
	'.next',
	'.nuxt',
	'.svelte-kit',
	'.turbo',
	'.parcel-cache',
	'.cache',
	'.gradle',
	'.idea',
	'.vs',
	'.vscode-test',
	'coverage',
	'.nyc_output',
	'Pods',
	'DerivedData',
	'.terraform',
	'.dart_tool',
	'.angular',
	'site-packages',
]);

// Generated files that are text but carry no knowledge worth a chunk.
const GENERATED_FILE =
	/(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|Pipfile\.lock|Cargo\.lock|composer\.lock|go\.sum|Gemfile\.lock)$|\.(min\.js|min\.css|map|pyc|pyo)$/;

/** True for lock files, minified bundles and source maps. */
export function isGeneratedFile(relPath: string): boolean {
	return GENERATED_FILE.test(relPath);
}

/** True for a folder that is never walked; `*.egg-info` folders included. */
export function isExcludedDir(name: string): boolean {
	return DEFAULT_EXCLUDED_DIRS.has(name) || name.endsWith('.egg-info');
}

/** Expands `{a,b}` alternatives (VS Code globs allow them; gitignore does not). */
export function expandBraces(glob: string): string[] {
	const m = /\{([^{}]*)\}/.exec(glob);
	if (!m) return [glob];
	const head = glob.slice(0, m.index);
	const tail = glob.slice(m.index + m[0].length);
	return m[1].split(',').flatMap((alt) => expandBraces(head + alt + tail));
}

/** The rules in force for one folder: its own .gitignore plus every ancestor's. */
export class IgnoreStack {
	private constructor(
		private readonly user: Ignore,
		private readonly frames: ReadonlyArray<{ base: string; rules: Ignore }>,
	) {}

	/** The root's rules: user excludes, `.git/info/exclude`, and the root `.gitignore`. */
	static async forRoot(root: string, userExcludes: readonly string[]): Promise<IgnoreStack> {
		const user = ignore().add(userExcludes.flatMap((g) => expandBraces(g.replace(/^\.\//, ''))));
		const rules = ignore();
		const exclude = await readOptional(join(root, '.git', 'info', 'exclude'));
		if (exclude) rules.add(exclude);
		const stack = new IgnoreStack(user, [{ base: '', rules }]);
		return stack.descend(root, '');
	}

	/** The rules for a sub-folder (`relDir` relative to the root): adds its `.gitignore`, if any. */
	async descend(root: string, relDir: string): Promise<IgnoreStack> {
		const text = await readOptional(join(root, relDir, '.gitignore'));
		if (!text) return this;
		if (relDir === '' && this.frames.length === 1) {
			// The root's .gitignore shares the frame of .git/info/exclude (both are rooted there).
			return new IgnoreStack(this.user, [{ base: '', rules: ignore().add(this.frames[0].rules).add(text) }]);
		}
		return new IgnoreStack(this.user, [...this.frames, { base: relDir, rules: ignore().add(text) }]);
	}

	/**
	 * Whether `relPath` is excluded. Deeper .gitignore files are applied after shallower ones, so a
	 * `!pattern` below re-includes what a parent's pattern excluded (as git does for files whose
	 * folder is not itself excluded — an excluded folder is never walked).
	 */
	excludes(relPath: string, isDir: boolean): boolean {
		const probe = (p: string) => (isDir ? `${p}/` : p);
		if (this.user.ignores(probe(relPath))) return true;
		let excluded = false;
		for (const f of this.frames) {
			const rel = f.base ? relPath.slice(f.base.length + 1) : relPath;
			const r = f.rules.test(probe(rel));
			if (r.ignored) excluded = true;
			else if (r.unignored) excluded = false;
		}
		return excluded;
	}
}

async function readOptional(path: string): Promise<string | null> {
	try {
		return await readFile(path, 'utf8');
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
		throw e;
	}
}
