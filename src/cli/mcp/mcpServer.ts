/**
 * The MCP server behind `gmem mcp`: lists the tools, validates each call's arguments against the
 * tool's schema and runs it on the session. The low-level SDK Server, not McpServer, so that a
 * write tool called on a read-only server is refused with a message saying how to allow writes
 * (McpServer can only say "not found"). Errors follow the MCP spec: an unknown or refused tool is a
 * protocol error; bad arguments and a failed run (the store unreachable) are tool results with
 * `isError`, which the agent's model sees and can act on. Every result passes redactDeep.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
	CallToolRequestSchema,
	ErrorCode,
	ListToolsRequestSchema,
	McpError,
	type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { version } from '../../../package.json';
import { StoreUnavailableError } from '../cliTypes';
import { redactDeep, type McpSession } from './mcpSession';
import { READ_TOOLS, type ToolDef } from './mcpTools';
import { WRITE_TOOLS } from './mcpWriteTools';

const ALL_TOOLS = [...READ_TOOLS, ...WRITE_TOOLS];

/** The tools a server offers: the write tools only with --allow-writes. */
export function offeredTools(allowWrites: boolean): ToolDef[] {
	return allowWrites ? ALL_TOOLS : READ_TOOLS;
}

function textResult(value: unknown, isError = false): CallToolResult {
	const clean = redactDeep(value);
	if (isError) return { content: [{ type: 'text', text: String(clean) }], isError: true };
	return {
		content: [{ type: 'text', text: JSON.stringify(clean, null, 1) }],
		structuredContent: clean as Record<string, unknown>,
	};
}

/** Builds the server for a session; connect it to a transport to serve. */
export function createMcpServer(session: McpSession): Server {
	const tools = offeredTools(session.options.allowWrites);
	const server = new Server(
		{ name: 'gated-memory', version },
		{
			capabilities: { tools: {} },
			instructions: `Gated Memory: a local, inspectable memory for workspace ${session.workspaceId}. Call decide_turn to see whether a message needs retrieval and which tiers; search_workspace for code, recall_memory for past decisions and the user's profile.${session.options.allowWrites ? ' remember and forget write.' : ' This server is read-only.'}`,
		},
	);
	server.setRequestHandler(ListToolsRequestSchema, async () => ({
		tools: tools.map((t) => ({
			name: t.name,
			description: t.description,
			inputSchema: z.toJSONSchema(t.input, { io: 'input' }) as { type: 'object' },
			annotations: { readOnlyHint: !t.writes, destructiveHint: t.name === 'forget', openWorldHint: false },
		})),
	}));
	server.setRequestHandler(CallToolRequestSchema, async (request) => {
		const { name, arguments: args } = request.params;
		const def = tools.find((t) => t.name === name);
		if (!def) {
			const refused = ALL_TOOLS.some((t) => t.name === name);
			throw new McpError(
				ErrorCode.InvalidParams,
				refused
					? `${name} writes to memory and this server is read-only: start it with "gmem mcp --allow-writes"`
					: `unknown tool "${name}"`,
			);
		}
		const parsed = def.input.safeParse(args ?? {});
		if (!parsed.success) return textResult(`invalid arguments for ${name}: ${z.prettifyError(parsed.error)}`, true);
		try {
			return textResult(await def.run(session, parsed.data));
		} catch (e) {
			const message = e instanceof Error ? e.message : String(e);
			return textResult(
				e instanceof StoreUnavailableError
					? `the memory store is unavailable: ${message}`
					: `${name} failed: ${message}`,
				true,
			);
		}
	});
	return server;
}
