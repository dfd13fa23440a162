/**
 * What VS Code's agent mode is handed for `gmem mcp` (src/extension/mcp/mcpDefinition.ts): the command
 * line, no password in the definition, the API detected only where it exists; and the MCP layer's
 * pure parts — which tools a server offers, and that no result or stored memory keeps a secret.
 */
import assert from 'node:assert/strict';
import { offeredTools } from '../../src/cli/mcp/mcpServer';
import { redactDeep } from '../../src/cli/mcp/mcpSession';
import { detectMcpApi, mcpLaunch, mcpSecretEnv } from '../../src/extension/mcp/mcpDefinition';
import { withoutSecrets } from '../../src/retrieval/memoryWriter';

const TOKEN = 'ghp_' + 'A1b2C3d4'.repeat(5);

describe('gmem mcp for agent mode (definition)', () => {
	it('runs the bundled CLI with the host runtime on the folder store, read-only unless allowed', () => {
		const launch = mcpLaunch({
			execPath: '/opt/code/code',
			extensionPath: '/ext',
			folder: '/ws',
			location: { kind: 'folder', dir: '/db' },
			allowWrites: false,
		});
		assert.equal(launch.command, '/opt/code/code');
		assert.deepEqual(launch.args, ['/ext/dist/cli.js', 'mcp', '--db', '/db', '--workspace', '/ws']);
		assert.deepEqual(launch.env, { ELECTRON_RUN_AS_NODE: '1' }, 'Electron runs the CLI as Node');
		assert.equal(launch.cwd, '/ws');
		const rw = mcpLaunch({
			execPath: 'node',
			extensionPath: '/ext',
			folder: null,
			location: { kind: 'folder', dir: '/db', scope: 'team' },
			allowWrites: true,
		});
		assert.deepEqual(rw.args.slice(2), ['--db', '/db', '--scope', 'team', '--allow-writes']);
		assert.equal(rw.cwd, null);
	});

	it('keeps a server password out of the definition and hands it over only as PGPASSWORD at start', () => {
		const location = { kind: 'url', url: 'postgres://gmem:s3cr%40t@db.internal:5432/memory' } as const;
		const launch = mcpLaunch({ execPath: 'node', extensionPath: '/ext', folder: '/ws', location, allowWrites: false });
		assert.doesNotMatch(JSON.stringify(launch), /s3cr/);
		assert.equal(launch.args[3], 'postgres://gmem@db.internal:5432/memory');
		assert.deepEqual(mcpSecretEnv(location), { PGPASSWORD: 's3cr@t' });
		assert.deepEqual(mcpSecretEnv({ kind: 'url', url: 'postgres://gmem@db/memory' }), {});
		assert.deepEqual(mcpSecretEnv({ kind: 'folder', dir: '/db' }), {});
	});

	it('detects the provider API only where VS Code has both parts of it', () => {
		class Definition {}
		const register = () => ({ dispose: () => undefined });
		assert.equal(detectMcpApi({ lm: { selectChatModels: () => [] } }), null, 'an older VS Code: vscode.lm without MCP');
		assert.equal(
			detectMcpApi({ lm: { registerMcpServerDefinitionProvider: register } }),
			null,
			'no McpStdioServerDefinition',
		);
		assert.equal(detectMcpApi({ McpStdioServerDefinition: Definition }), null, 'no vscode.lm');
		const api = detectMcpApi({
			lm: { registerMcpServerDefinitionProvider: register },
			McpStdioServerDefinition: Definition,
		});
		assert.equal(api?.Definition, Definition);
	});
});

describe('gmem mcp tools and secrets', () => {
	it('offers the write tools only with --allow-writes', () => {
		assert.deepEqual(
			offeredTools(false).map((t) => t.name),
			['decide_turn', 'search_workspace', 'recall_memory', 'inspect_memory'],
		);
		assert.deepEqual(
			offeredTools(true)
				.filter((t) => t.writes)
				.map((t) => t.name),
			['remember', 'forget'],
		);
	});

	it('redacts every string of a result, at any depth, and leaves other values alone', () => {
		const out = redactDeep({
			hits: [{ text: `token = "${TOKEN}"`, score: 0.5 }],
			notes: [TOKEN],
			ok: true,
			none: null,
		});
		assert.deepEqual(out, {
			hits: [{ text: 'token = "[REDACTED]"', score: 0.5 }],
			notes: ['[REDACTED]'],
			ok: true,
			none: null,
		});
	});

	it('the shared write path redacts question, answer and profile values before anything is stored', () => {
		const w = withoutSecrets({
			workspaceId: 'w',
			turnId: 't',
			trigger: 'statement',
			write: ['profile'],
			question: `my token is ${TOKEN}`,
			answer: `use ${TOKEN}`,
			profile: [{ key: 'token', value: TOKEN, kind: 'fact' }],
		});
		assert.doesNotMatch(JSON.stringify(w), new RegExp(TOKEN));
		assert.equal(w.question, 'my token is [REDACTED]');
		assert.equal(w.profile?.[0].value, '[REDACTED]');
	});
});
