// Flat config. The zones below enforce the layer arrows of docs/architecture.md:
// extension | cli → chat → generation | retrieval | indexing → store | models → core; webview → core/protocol only.
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'net', 'worker_threads', 'crypto', 'http', 'https'];

/** @param {string[]} groups */
const restrict = (groups, message) => ({
	'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }],
});

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'out/**', 'test/e2e/out/**', '**/*.cjs', '**/*.mjs'] },
	...tseslint.configs.recommended,
	{
		files: ['**/*.ts'],
		languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
			'no-empty': ['error', { allowEmptyCatch: false }],
		},
	},
	{
		files: ['src/core/**/*.ts'],
		rules: restrict(
			['vscode', ...nodeBuiltins, 'pg', '@electric-sql/*', 'onnxruntime-node', '**/store/**', '**/models/**', '**/retrieval/**', '**/indexing/**', '**/extension/**', '**/cli/**'],
			'src/core is pure: no vscode, no I/O, no outer layers.',
		),
	},
	{
		files: ['src/store/**/*.ts', 'src/models/**/*.ts'],
		rules: restrict(['vscode', '**/retrieval/**', '**/indexing/**', '**/extension/**', '**/cli/**'], 'store/models depend only on core.'),
	},
	{
		files: ['src/retrieval/**/*.ts', 'src/indexing/**/*.ts'],
		rules: restrict(['vscode', '**/extension/**', '**/cli/**'], 'retrieval/indexing must not import the VS Code layer or the CLI.'),
	},
	{
		files: ['src/generation/**/*.ts'],
		rules: restrict(['vscode', '**/store/**', '**/indexing/**', '**/extension/**', '**/cli/**'], 'generation depends on core (and retrieval types) only; vscode.lm is adapted in src/extension.'),
	},
	{
		files: ['src/chat/**/*.ts'],
		rules: restrict(['vscode', '**/extension/**', '**/cli/**'], 'src/chat is the host-agnostic turn pipeline: the editor and the CLI adapt to it, never the reverse.'),
	},
	{
		files: ['src/cli/**/*.ts'],
		rules: restrict(['vscode', '**/extension/**'], 'the CLI never imports vscode.'),
	},
	{
		files: ['webview/**/*.ts'],
		rules: restrict(['vscode', ...nodeBuiltins, '**/src/store/**', '**/src/models/**', '**/src/retrieval/**', '**/src/indexing/**', '**/src/generation/**', '**/src/extension/**', '**/src/cli/**'], 'the webview imports only src/core/protocol.ts.'),
	},
);
