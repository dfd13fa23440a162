// Flat config. The layer allow-lists below enforce the arrows of docs/architecture.md: each layer
// names the layers it MAY import (anything else is an error), and only src/extension may import vscode.
import { dirname, relative, resolve, sep } from 'node:path';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
	'node:*',
	'fs',
	'fs/*',
	'path',
	'os',
	'child_process',
	'net',
	'worker_threads',
	'crypto',
	'http',
	'https',
];

/** @param {string[]} groups */
const restrict = (groups, message) => ({
	'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }],
});

/**
 * What each layer may import (repository-relative folders or files). A relative import that
 * resolves outside its layer's list is an error naming the list; `vscode` is allowed only where
 * `vscode: true`. The webview may import only the two protocol modules (they bring their own types).
 */
const LAYERS = {
	'src/core': { may: ['src/core'] },
	'src/store': { may: ['src/core', 'src/store'] },
	'src/models': { may: ['src/core', 'src/models'] },
	'src/retrieval': { may: ['src/core', 'src/store', 'src/models', 'src/indexing', 'src/retrieval'] },
	'src/indexing': { may: ['src/core', 'src/store', 'src/models', 'src/retrieval', 'src/indexing'] },
	'src/generation': { may: ['src/core', 'src/retrieval', 'src/generation'] },
	'src/chat': {
		may: ['src/core', 'src/store', 'src/models', 'src/retrieval', 'src/indexing', 'src/generation', 'src/chat'],
	},
	'src/cli': {
		may: [
			'src/core',
			'src/store',
			'src/models',
			'src/retrieval',
			'src/indexing',
			'src/generation',
			'src/chat',
			'src/cli',
			'package.json',
		],
	},
	'src/extension': {
		may: [
			'src/core',
			'src/store',
			'src/models',
			'src/retrieval',
			'src/indexing',
			'src/generation',
			'src/chat',
			'src/extension',
		],
		vscode: true,
	},
	webview: { may: ['webview', 'src/core/protocol.ts', 'src/core/memoryPanelProtocol.ts'] },
};

const root = import.meta.dirname;
const posix = (p) => p.split(sep).join('/');
const layerOf = (rel) => Object.keys(LAYERS).find((l) => rel === l || rel.startsWith(`${l}/`));
const allowed = (target, may) =>
	may.some(
		(m) => target === m || target.startsWith(`${m}/`) || target === m.replace(/\.ts$/, '') || `${target}.ts` === m,
	);

/** The allow-list rule (a local plugin: the layer of the importing file decides what it may reach). */
const layerPlugin = {
	rules: {
		'allowed-imports': {
			meta: { type: 'problem', schema: [] },
			create(context) {
				const file = posix(relative(root, context.filename));
				const layer = layerOf(file);
				if (!layer) return {};
				const rule = LAYERS[layer];
				const check = (node) => {
					const spec = node.source && node.source.value;
					if (typeof spec !== 'string') return;
					if (spec === 'vscode') {
						if (!rule.vscode)
							context.report({
								node,
								message: `${layer} may not import vscode (only src/extension adapts the editor)`,
							});
						return;
					}
					if (!spec.startsWith('.')) return;
					const target = posix(relative(root, resolve(dirname(context.filename), spec)));
					if (!allowed(target, rule.may))
						context.report({ node, message: `${layer} may import only ${rule.may.join(', ')} (not ${target})` });
				};
				return {
					ImportDeclaration: check,
					ExportNamedDeclaration: check,
					ExportAllDeclaration: check,
					ImportExpression: check,
				};
			},
		},
	},
};

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
		files: ['src/**/*.ts', 'webview/**/*.ts'],
		plugins: { layers: layerPlugin },
		rules: { 'layers/allowed-imports': 'error' },
	},
	{
		files: ['src/core/**/*.ts'],
		rules: restrict(
			['vscode', ...nodeBuiltins, 'pg', '@electric-sql/*', 'onnxruntime-node'],
			'src/core is pure: no vscode, no I/O.',
		),
	},
	{
		files: ['webview/**/*.ts'],
		rules: restrict(['vscode', ...nodeBuiltins], 'the webview is a browser bundle: no vscode, no Node built-ins.'),
	},
);
