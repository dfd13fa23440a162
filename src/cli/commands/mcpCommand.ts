/**
 * `gmem mcp [--allow-writes]`: Gated Memory as an MCP server over stdio for other agents (Copilot
 * agent mode, Claude Code, Cursor) on the same store and defaults as the extension and the CLI.
 * Runs until the client closes stdin. stdout carries only the protocol; logs go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { parseCommandArgs } from '../args';
import { EXIT_OK, type CliCommand, type CliIo } from '../cliTypes';
import { createMcpServer, offeredTools } from '../mcp/mcpServer';
import { McpSession } from '../mcp/mcpSession';
import { loadConfig } from './gateCommand';

const USAGE = `usage: gmem mcp [--allow-writes] [--workspace DIR] [--db PATH|URL] [--scope NAME]
                [--embedder builtin|minilm|hashing|none] [--config FILE]

An MCP server over stdio (JSON-RPC on stdin/stdout) for agents. Tools: ${offeredTools(true)
	.map((t) => t.name)
	.join(', ')}.
Read-only unless --allow-writes: remember and forget are then not offered, and a call to them is
refused. Results never carry a recognisable secret (the indexer's scanner redacts them).
  --workspace DIR  the workspace served (default: the current directory)
  --db, --scope    the store, as every gmem command ($GMEM_DB, else ~/.gated-memory/db)
  --embedder X     as gmem search (default builtin, or $GMEM_EMBEDDER)
  --config FILE    threshold overrides, as gmem gate`;

const OPTIONS = {
	db: { type: 'string' },
	scope: { type: 'string' },
	workspace: { type: 'string' },
	embedder: { type: 'string' },
	config: { type: 'string' },
	'allow-writes': { type: 'boolean', default: false },
} as const;

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values } = parseCommandArgs(argv, OPTIONS, false);
	const thresholds = loadConfig(values.config, io.cwd);
	// Anything a library prints to stdout would corrupt the protocol: the session logs to stderr only.
	const logIo: CliIo = { ...io, stdout: io.stderr };
	const session = new McpSession(
		{
			db: values.db,
			scope: values.scope,
			workspace: values.workspace,
			embedder: values.embedder,
			thresholds,
			allowWrites: values['allow-writes'],
		},
		logIo,
	);
	const server = createMcpServer(session);
	const closed = new Promise<void>((resolve) => (server.onclose = resolve));
	// The SDK's stdio transport does not notice the end of stdin; a client that goes away ends the server.
	process.stdin.once('end', () => void server.close());
	await server.connect(new StdioServerTransport());
	io.stderr(
		`gmem mcp: serving workspace ${session.workspaceId} (${values['allow-writes'] ? 'read-write' : 'read-only'})\n`,
	);
	await closed;
	await session.close();
	return EXIT_OK;
}

export const mcpCommand: CliCommand = {
	name: 'mcp',
	summary: 'MCP server over stdio for other agents (read-only unless --allow-writes)',
	usage: USAGE,
	run,
};
